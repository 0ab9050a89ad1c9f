/**
 * Saved itineraries of signed-in users (spec part 3 §2.4, §4.3; docs/itineraries.md "Saved"). Every call is
 * scoped to the bearer's user: another user's id is the same 404 as an unknown one. A share slug exists only
 * while the itinerary is public; making it private drops the slug for good (a new one on going public again),
 * so a link once withdrawn stays dead.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { ApiError } from '../../shared/errors.js';
import type { Principal } from '../../domain/principal.js';
import type { ItineraryFields, ItineraryRecord, ItineraryRepository } from '../../store/pg/itineraries.js';
import type { SaveItineraryBody, UpdateItineraryBody } from './itinerary-requests.js';
import { PROVIDER } from './itinerary-planner.js';

/** Itineraries one user may keep (every one is listed at once). */
export const MAX_SAVED_ITINERARIES = 200;

const notFound = () => new ApiError('NOT_FOUND', { message: 'Itinerary not found' });

function signedInUser(principal: Principal | undefined): string {
  if (principal?.kind === 'user') return principal.userId;
  throw new ApiError('UNAUTHENTICATED', { message: 'Saved itineraries need a signed-in user (bearer token)' });
}

/** 16 random bytes, base64url: unguessable, so a private itinerary cannot be found by trying slugs. */
const newShareSlug = () => randomBytes(16).toString('base64url');

/** The answer shape: the record, `shareSlug` only while public, and the provider. */
function shaped(record: ItineraryRecord) {
  const { shareSlug, ...rest } = record;
  return { provider: PROVIDER, ...rest, ...(record.isPublic && shareSlug ? { shareSlug } : {}) };
}

export class SavedItineraries {
  constructor(private readonly repository: ItineraryRepository) {}

  async list(caller: Principal | undefined) {
    const itineraries = await this.repository.list(signedInUser(caller), MAX_SAVED_ITINERARIES);
    return { provider: PROVIDER, count: itineraries.length, itineraries: itineraries.map(shaped) };
  }

  async save(caller: Principal | undefined, body: SaveItineraryBody) {
    const fields: ItineraryFields = {
      name: body.name,
      stops: body.stops,
      notes: body.notes ?? null,
      plan: body.plan ?? null,
      isPublic: body.isPublic,
      shareSlug: body.isPublic ? newShareSlug() : null,
    };
    const record = await this.repository.create(signedInUser(caller), randomUUID(), fields, MAX_SAVED_ITINERARIES);
    if (!record) throw new ApiError('VALIDATION_ERROR', { message: [`You may keep at most ${MAX_SAVED_ITINERARIES} itineraries; delete one first`], details: { limit: MAX_SAVED_ITINERARIES } });
    return shaped(record);
  }

  /** Changes only the fields sent; null clears `notes` or `plan`. */
  async update(caller: Principal | undefined, id: string, changes: UpdateItineraryBody) {
    const userId = signedInUser(caller);
    const current = await this.repository.find(userId, id);
    if (!current) throw notFound();
    const isPublic = changes.isPublic ?? current.isPublic;
    const fields: ItineraryFields = {
      name: changes.name ?? current.name,
      stops: changes.stops ?? current.stops,
      notes: changes.notes === undefined ? current.notes : changes.notes,
      plan: changes.plan === undefined ? current.plan : changes.plan,
      isPublic,
      shareSlug: isPublic ? (current.shareSlug ?? newShareSlug()) : null,
    };
    const record = await this.repository.update(userId, id, fields);
    if (!record) throw notFound();
    return shaped(record);
  }

  async remove(caller: Principal | undefined, id: string) {
    if (!(await this.repository.delete(signedInUser(caller), id))) throw notFound();
    return { provider: PROVIDER, id, deleted: true };
  }

  /** GET /itineraries/{shareSlug}: a public itinerary, without its owner. */
  async shared(shareSlug: string) {
    const record = await this.repository.findShared(shareSlug);
    if (!record) throw new ApiError('NOT_FOUND', { message: 'No public itinerary has this share slug' });
    return shaped(record);
  }
}
