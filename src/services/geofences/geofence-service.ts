/**
 * Geofences (designed; spec part 3 §4.3 names them, shapes not shown; docs/geofences.md): circular and
 * polygon zones owned by a project; devices send fixes; the server evaluates enter, leave and dwell with
 * hysteresis and fires signed webhooks. A key acts for its own project; a signed-in user names one of their
 * projects with `projectId`. Another project's zone answers the same 404 as an unknown one.
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../domain/principal.js';
import { ApiError } from '../../shared/errors.js';
import { boundsOf, GeofenceIndex, type GeofenceShape } from '../../solvers/geofences/geofence-index.js';
import type { GeofenceRecord, GeofenceRepository } from '../../store/pg/geofences.js';
import type { GeofenceWebhooks } from './geofence-webhooks.js';
import { MAX_POLYGON_SPAN_DEG, MAX_POLYGON_VERTICES, MAX_ZONES_PER_PROJECT, type EvaluateRequest, type NewGeofenceRequest } from './geofence-requests.js';

/** Project indexes kept in memory per process. */
const MAX_CACHED_PROJECTS = 256;

export interface GeofenceOwners {
  /** The project of an API key. */
  projectOfKey(keyId: string): Promise<string | undefined>;
  /** Whether the user owns the project. */
  ownsProject(userId: string, projectId: string): Promise<boolean>;
}

interface ProjectIndex {
  version: number;
  index: GeofenceIndex;
  zones: Map<string, GeofenceRecord>;
}

const view = (record: GeofenceRecord) => ({
  id: record.id,
  projectId: record.projectId,
  name: record.name,
  shape: record.shape,
  hysteresisM: record.hysteresisM,
  dwellSec: record.dwellSec,
  webhookUrl: record.webhookUrl,
  metadata: record.metadata,
  createdAt: record.createdAt,
});

/** Drops a repeated closing vertex and refuses rings that enclose nothing or span too far. */
function normalisedShape(shape: NewGeofenceRequest['shape']): GeofenceShape {
  if (shape.type === 'circle') return shape;
  const ring = shape.coordinates.map(([lng, lat]) => [lng, lat] as [number, number]);
  const first = ring[0]!;
  const last = ring[ring.length - 1]!;
  if (ring.length > 3 && first[0] === last[0] && first[1] === last[1]) ring.pop();
  const invalid = (message: string) => new ApiError('VALIDATION_ERROR', { message: [`shape.coordinates: ${message}`] });
  if (ring.length < 3) throw invalid('a polygon needs at least 3 distinct vertices');
  if (ring.length > MAX_POLYGON_VERTICES) throw invalid(`at most ${MAX_POLYGON_VERTICES} vertices`);
  let twiceArea = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) twiceArea += (ring[j]![0] - ring[i]![0]) * (ring[j]![1] + ring[i]![1]);
  if (Math.abs(twiceArea) < 1e-12) throw invalid('the polygon encloses no area');
  const box = boundsOf({ type: 'polygon', coordinates: ring });
  if (box.maxLat - box.minLat > MAX_POLYGON_SPAN_DEG || box.maxLng - box.minLng > MAX_POLYGON_SPAN_DEG) throw invalid(`a polygon spans at most ${MAX_POLYGON_SPAN_DEG} degree`);
  return { type: 'polygon', coordinates: ring };
}

export class Geofences {
  private readonly indexes = new Map<string, ProjectIndex>();

  constructor(
    private readonly repository: GeofenceRepository,
    private readonly owners: GeofenceOwners,
    private readonly webhooks: GeofenceWebhooks,
    private readonly now: () => number = Date.now,
  ) {}

  /** The project the call acts on: the key's own, or one the signed-in user owns and names. */
  async projectOf(principal: Principal | undefined, projectId: string | undefined): Promise<string> {
    const notFound = () => new ApiError('NOT_FOUND', { message: 'Project not found' });
    if (principal?.kind === 'key') {
      const own = await this.owners.projectOfKey(principal.keyId);
      if (!own || (projectId !== undefined && projectId !== own)) throw notFound();
      return own;
    }
    if (principal?.kind === 'user') {
      if (projectId === undefined) throw new ApiError('VALIDATION_ERROR', { message: 'projectId is required with a bearer token (an API key acts for its own project)' });
      if (!(await this.owners.ownsProject(principal.userId, projectId))) throw notFound();
      return projectId;
    }
    throw new ApiError('UNAUTHENTICATED', { message: 'A bearer token or an API key is required' });
  }

  async create(principal: Principal | undefined, projectIdAsked: string | undefined, request: NewGeofenceRequest) {
    const projectId = await this.projectOf(principal, projectIdAsked);
    const shape = normalisedShape(request.shape);
    const webhookUrl = request.webhookUrl === undefined ? null : this.webhooks.assertUsableUrl(request.webhookUrl);
    if ((await this.repository.count(projectId)) >= MAX_ZONES_PER_PROJECT) throw new ApiError('VALIDATION_ERROR', { message: `At most ${MAX_ZONES_PER_PROJECT} geofences per project` });
    const id = randomUUID();
    const record = await this.repository.create(
      { id, projectId, name: request.name, shape, hysteresisM: request.hysteresisM, dwellSec: request.dwellSec ?? null, webhookUrl, metadata: request.metadata ?? null },
      boundsOf(shape),
    );
    // shown once; the receiver verifies signatures with it
    return { ...view(record), ...(webhookUrl ? { webhookSecret: this.webhooks.secretFor(id) } : {}) };
  }

  async list(principal: Principal | undefined, query: { projectId?: string | undefined; limit: number; offset: number }) {
    const projectId = await this.projectOf(principal, query.projectId);
    const { items, total } = await this.repository.list(projectId, query.limit, query.offset);
    return { projectId, total, limit: query.limit, offset: query.offset, items: items.map(view) };
  }

  async get(principal: Principal | undefined, projectIdAsked: string | undefined, id: string) {
    return view(await this.owned(principal, projectIdAsked, id));
  }

  async remove(principal: Principal | undefined, projectIdAsked: string | undefined, id: string): Promise<void> {
    const projectId = await this.projectOf(principal, projectIdAsked);
    if (!(await this.repository.delete(projectId, id))) throw new ApiError('NOT_FOUND', { message: 'Geofence not found' });
  }

  async deliveries(principal: Principal | undefined, projectIdAsked: string | undefined, id: string, limit?: number) {
    await this.owned(principal, projectIdAsked, id);
    return this.webhooks.list(id, limit);
  }

  /**
   * Fixes of one device, in time order: their transitions are stored (one transaction), answered and sent to
   * the zones' webhooks. The answer's `inside` is after the last fix; each event names the fix that caused it.
   */
  async evaluate(principal: Principal | undefined, projectIdAsked: string | undefined, request: EvaluateRequest) {
    const projectId = await this.projectOf(principal, projectIdAsked);
    const nowMs = this.now();
    const fixes = 'fixes' in request ? request.fixes : [{ lat: request.lat, lng: request.lng, at: request.at }];
    const times = fixes.map((fix, index) => {
      const atMs = fix.at === undefined ? nowMs : Date.parse(fix.at);
      const field = 'fixes' in request ? `fixes.${index}.at` : 'at';
      if (atMs > nowMs + 60_000 || atMs < nowMs - 86_400_000) throw new ApiError('VALIDATION_ERROR', { message: [`${field}: must be within the last 24 hours and at most 1 minute ahead`] });
      return atMs;
    });
    for (let index = 1; index < times.length; index++) {
      if (times[index]! < times[index - 1]!) throw new ApiError('VALIDATION_ERROR', { message: [`fixes.${index}.at: fixes must be in time order`] });
    }
    const [{ index, zones }, state] = await Promise.all([this.indexOf(projectId), this.repository.deviceState(projectId, request.deviceId)]);
    // the device's zones as the fixes move it: entry time and whether this visit already dwelt
    const inside = new Map(state.map((entry) => [entry.geofenceId, { enteredAtMs: entry.enteredAtMs, dwellFired: entry.dwellFired }]));
    const changes: { geofenceId: string; type: 'enter' | 'leave' | 'dwell'; atMs: number; data: Record<string, unknown>; fix: number }[] = [];
    fixes.forEach((fix, fixIndex) => {
      const atMs = times[fixIndex]!;
      const dataOf = (zone: GeofenceRecord | undefined, extra: Record<string, unknown>) => ({
        deviceId: request.deviceId,
        geofenceId: zone?.id,
        name: zone?.name ?? null,
        metadata: zone?.metadata ?? null,
        position: { lat: fix.lat, lng: fix.lng },
        ...extra,
      });
      const insideIds = new Set(inside.keys());
      for (const transition of index.transitions(fix.lat, fix.lng, insideIds)) {
        const zone = zones.get(transition.zone.id);
        changes.push({ geofenceId: transition.zone.id, type: transition.type, atMs, data: dataOf(zone, { distanceM: Math.round(transition.distanceM * 10) / 10 }), fix: fixIndex });
        if (transition.type === 'enter') inside.set(transition.zone.id, { enteredAtMs: atMs, dwellFired: false });
        else inside.delete(transition.zone.id);
      }
      for (const [geofenceId, visit] of inside) {
        const zone = zones.get(geofenceId);
        if (!zone || zone.dwellSec === null || visit.dwellFired || atMs - visit.enteredAtMs < zone.dwellSec * 1000) continue;
        visit.dwellFired = true;
        changes.push({ geofenceId, type: 'dwell', atMs, data: dataOf(zone, { dwellSec: Math.round((atMs - visit.enteredAtMs) / 1000), enteredAt: new Date(visit.enteredAtMs).toISOString() }), fix: fixIndex });
      }
    });
    const written = await this.repository.apply(projectId, request.deviceId, changes);
    const notified = new Set<string>();
    for (const event of written) {
      if (!event.webhookUrl || notified.has(event.geofenceId)) continue;
      notified.add(event.geofenceId);
      this.webhooks.notify(event.geofenceId, event.webhookUrl);
    }
    return {
      deviceId: request.deviceId,
      at: new Date(times[times.length - 1]!).toISOString(),
      fixes: fixes.length,
      inside: [...inside.keys()].filter((id) => zones.has(id)).sort(),
      events: written.map((event) => ({ geofenceId: event.geofenceId, name: zones.get(event.geofenceId)?.name ?? null, type: event.type, seq: event.seq, at: event.at, fix: event.fix })),
    };
  }

  private async owned(principal: Principal | undefined, projectIdAsked: string | undefined, id: string): Promise<GeofenceRecord> {
    const projectId = await this.projectOf(principal, projectIdAsked);
    const found = await this.repository.find(projectId, id);
    if (!found) throw new ApiError('NOT_FOUND', { message: 'Geofence not found' });
    return found;
  }

  /** The project's index, rebuilt when any process created or deleted one of its zones. */
  private async indexOf(projectId: string): Promise<ProjectIndex> {
    const version = await this.repository.version(projectId);
    const cached = this.indexes.get(projectId);
    if (cached && cached.version === version) return cached;
    const records = await this.repository.all(projectId);
    const built: ProjectIndex = {
      version,
      index: new GeofenceIndex(records.map((record) => ({ id: record.id, shape: record.shape, hysteresisM: record.hysteresisM }))),
      zones: new Map(records.map((record) => [record.id, record])),
    };
    this.indexes.delete(projectId);
    if (this.indexes.size >= MAX_CACHED_PROJECTS) this.indexes.delete(this.indexes.keys().next().value!);
    this.indexes.set(projectId, built);
    return built;
  }
}
