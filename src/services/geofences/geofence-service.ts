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

  /** One fix of a device: its transitions are stored, answered and sent to the zones' webhooks. */
  async evaluate(principal: Principal | undefined, projectIdAsked: string | undefined, fix: EvaluateRequest) {
    const projectId = await this.projectOf(principal, projectIdAsked);
    const nowMs = this.now();
    const atMs = fix.at === undefined ? nowMs : Date.parse(fix.at);
    if (atMs > nowMs + 60_000 || atMs < nowMs - 86_400_000) throw new ApiError('VALIDATION_ERROR', { message: ['at: must be within the last 24 hours and at most 1 minute ahead'] });
    const [{ index, zones }, state] = await Promise.all([this.indexOf(projectId), this.repository.deviceState(projectId, fix.deviceId)]);
    const insideIds = new Set(state.map((entry) => entry.geofenceId));
    const transitions = index.transitions(fix.lat, fix.lng, insideIds);
    const leaving = new Set(transitions.filter((transition) => transition.type === 'leave').map((transition) => transition.zone.id));
    const position = { lat: fix.lat, lng: fix.lng };
    const at = new Date(atMs).toISOString();
    const dataOf = (zone: GeofenceRecord | undefined, extra: Record<string, unknown>) => ({ deviceId: fix.deviceId, geofenceId: zone?.id, name: zone?.name ?? null, metadata: zone?.metadata ?? null, position, ...extra });
    const changes: { geofenceId: string; type: 'enter' | 'leave' | 'dwell'; atMs: number; data: Record<string, unknown> }[] = transitions.map((transition) => ({
      geofenceId: transition.zone.id,
      type: transition.type,
      atMs,
      data: dataOf(zones.get(transition.zone.id), { distanceM: Math.round(transition.distanceM * 10) / 10 }),
    }));
    for (const entry of state) {
      const zone = zones.get(entry.geofenceId);
      if (!zone || leaving.has(zone.id) || zone.dwellSec === null || entry.dwellFired) continue;
      if (atMs - entry.enteredAtMs >= zone.dwellSec * 1000) {
        changes.push({ geofenceId: zone.id, type: 'dwell', atMs, data: dataOf(zone, { dwellSec: Math.round((atMs - entry.enteredAtMs) / 1000), enteredAt: new Date(entry.enteredAtMs).toISOString() }) });
      }
    }
    const written = await this.repository.apply(projectId, fix.deviceId, changes);
    for (const event of written) if (event.webhookUrl) this.webhooks.notify(event.geofenceId, event.webhookUrl);
    for (const transition of transitions) {
      if (transition.type === 'enter') insideIds.add(transition.zone.id);
      else insideIds.delete(transition.zone.id);
    }
    return {
      deviceId: fix.deviceId,
      at,
      inside: [...insideIds].filter((id) => zones.has(id)).sort(),
      events: written.map((event) => ({ geofenceId: event.geofenceId, name: zones.get(event.geofenceId)?.name ?? null, type: event.type, seq: event.seq, at: event.at })),
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
