/**
 * Operator road edits (spec part 3 §4.1 "road edits"; admin endpoints designed in
 * docs/incidents-feedback.md): closures and access restrictions as lines or areas, in force from
 * `startsAt` to `endsAt` (or until removed). An access restriction may carry a sign `featureKey`,
 * which a user's `disregard` lifts for that user.
 */
import { randomUUID } from 'node:crypto';
import type { RoadEditKind } from '../../domain/feedback.js';
import type { Principal } from '../../domain/principal.js';
import { ApiError } from '../../shared/errors.js';
import type { Clock } from '../../shared/offset-clock.js';
import type { RoadEditGeometry, RoadEditRecord, RoadEditRepository } from '../../store/pg/road-edits.js';

export const MAX_ROAD_EDITS_LISTED = 1_000;
/** At most this many sign disregards are kept per user. */
export const MAX_DISREGARDS_PER_USER = 200;

export interface RoadEditInput {
  kind: RoadEditKind;
  geometry: RoadEditGeometry;
  reason?: string;
  featureKey?: string;
  startsAt?: string;
  endsAt?: string;
}

export class RoadEditService {
  constructor(
    private readonly edits: RoadEditRepository,
    private readonly now: Clock,
  ) {}

  async create(principal: Principal | undefined, input: RoadEditInput) {
    const at = new Date(this.now());
    const startsAt = input.startsAt ? new Date(input.startsAt) : at;
    const endsAt = input.endsAt ? new Date(input.endsAt) : null;
    if (endsAt && endsAt <= startsAt) throw new ApiError('VALIDATION_ERROR', { message: ['body.endsAt: must be after startsAt'] });
    const id = randomUUID();
    const createdBy = principal?.kind === 'user' ? principal.userId : 'operator';
    await this.edits.create({ id, kind: input.kind, geometry: input.geometry, reason: input.reason ?? '', featureKey: input.featureKey ?? null, startsAt, endsAt, createdBy, at });
    return this.find(id);
  }

  async find(id: string) {
    const edit = await this.edits.find(id);
    if (!edit) throw new ApiError('NOT_FOUND', { message: 'No such road edit' });
    return this.view(edit);
  }

  async list() {
    const edits = await this.edits.listCurrent(MAX_ROAD_EDITS_LISTED);
    return { provider: 'svc-feedback', count: edits.length, roadEdits: edits.map((edit) => this.view(edit)) };
  }

  async remove(id: string) {
    if (!(await this.edits.remove(id, new Date(this.now())))) throw new ApiError('NOT_FOUND', { message: 'No such road edit' });
    return { ok: true, id, removed: true };
  }

  /** Edits in force now (routing's avoidances). */
  active(): Promise<RoadEditRecord[]> {
    return this.edits.active(new Date(this.now()), 5_000);
  }

  /** The user's sign disregards after adding `featureKeys` (kept, so later plans and the export honour them). */
  async disregards(principal: Principal | undefined, featureKeys: readonly string[]): Promise<string[]> {
    if (principal?.kind !== 'user') return [...new Set(featureKeys)];
    const stored = await this.edits.disregards(principal.userId);
    const known = new Set(stored.map((entry) => entry.featureKey));
    const fresh = [...new Set(featureKeys)].filter((key) => !known.has(key)).slice(0, Math.max(0, MAX_DISREGARDS_PER_USER - known.size));
    await this.edits.addDisregards(principal.userId, fresh, new Date(this.now()));
    return [...known, ...fresh, ...featureKeys.filter((key) => !known.has(key) && !fresh.includes(key))];
  }

  /** For GET /auth/me/export: the user's sign disregards. */
  async disregardsOf(userId: string) {
    return this.edits.disregards(userId);
  }

  async removeDisregard(principal: Principal | undefined, featureKey: string) {
    if (principal?.kind !== 'user') throw new ApiError('UNAUTHENTICATED', { message: 'Sign disregards belong to a signed-in user' });
    if (!(await this.edits.removeDisregard(principal.userId, featureKey))) throw new ApiError('NOT_FOUND', { message: 'No such disregard' });
    return { ok: true, featureKey, removed: true };
  }

  async listDisregards(principal: Principal | undefined) {
    if (principal?.kind !== 'user') throw new ApiError('UNAUTHENTICATED', { message: 'Sign disregards belong to a signed-in user' });
    return { items: await this.edits.disregards(principal.userId) };
  }

  private view(edit: RoadEditRecord) {
    const now = this.now();
    const active = !edit.removedAt && Date.parse(edit.startsAt) <= now && (!edit.endsAt || Date.parse(edit.endsAt) > now);
    return { ...edit, active };
  }
}
