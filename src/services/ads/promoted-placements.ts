/**
 * Promoted placements (spec part 3 §4.10; docs/ads.md): operators' campaigns served as `promoted_pin`
 * results for a map box and categories, billed per click against the campaign's budget. Serving writes
 * nothing (impressions are free and not recorded, per user or otherwise); a click is recorded once per
 * client click id and charged only while the campaign is live and has budget for it.
 */
import { z } from 'zod';
import { ApiError } from '../../shared/errors.js';
import { haversineMeters } from '../../solvers/graph/geodesy.js';
import type { AdCampaignFields, AdCampaignRecord, AdCampaignRepository } from '../../store/pg/ad-campaigns.js';
import { CURRENCIES } from '../billing/plan-catalog.js';
import { parseBbox } from '../traffic/traffic-queries.js';

export const MAX_PROMOTED_RESULTS = 20;
/** Servable campaigns looked at per request (an operator-run list, far below this in practice). */
const CANDIDATE_LIMIT = 1_000;

const httpsUrl = z
  .url({ protocol: /^https$/, error: 'must be an https URL' })
  .max(2048);
const slug = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, { error: 'must be a lowercase category slug' });
const isoTime = z.iso.datetime({ offset: true });

const campaignFields = {
  placeId: z.string().min(1).max(200).nullable().optional().describe("A place's id or slug: the pin goes on it (lat/lng then optional)"),
  title: z.string().trim().min(1).max(80),
  subtitle: z.string().trim().max(140).nullable().optional(),
  imageUrl: httpsUrl.nullable().optional(),
  ctaUrl: httpsUrl.describe('Opened by the client after it recorded the click'),
  categories: z.array(slug).max(20).describe('Shown for requests naming any of them (or none)'),
  lat: z.number().min(-90).max(90).optional(),
  lng: z.number().min(-180).max(180).optional(),
  targetBbox: z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90), z.number().min(-180).max(180), z.number().min(-90).max(90)]).nullable().optional().describe('[west, south, east, north]: shown when the map box intersects it'),
  radiusMeters: z.number().int().min(50).max(500_000).nullable().optional().describe('Shown when the map box comes within this distance of the pin'),
  currency: z.enum(CURRENCIES),
  costPerClickMinor: z.number().int().min(1).max(1_000_000_000),
  budgetMinor: z.number().int().min(1).max(1_000_000_000_000),
  startsAt: isoTime.nullable().optional(),
  endsAt: isoTime.nullable().optional(),
  active: z.boolean(),
};

/** The operator's campaign body (POST); no categories: shown for any; inactive campaigns are kept but not served. */
export const campaignBody = z.object({ ...campaignFields, categories: campaignFields.categories.default([]), active: campaignFields.active.default(true) });
export type CampaignBody = z.infer<typeof campaignBody>;
/** PATCH: any subset, no defaults (an absent field is kept); the result is checked whole. */
export const campaignPatch = z.object(campaignFields).partial();
export type CampaignPatch = z.infer<typeof campaignPatch>;

export const promotedQuery = z.object({
  bbox: z.string().max(200).optional(),
  categories: z.string().max(1000).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PROMOTED_RESULTS).default(10),
});

export const clickBody = z.object({
  clickId: z.string().regex(/^[A-Za-z0-9._:-]{8,128}$/, { error: 'must be 8–128 letters, digits or . _ : - (a UUID is fine), one per tap' }),
  source: z.enum(['map', 'search', 'list', 'assistant']).optional(),
});

interface PlaceLookup {
  find(idOrSlug: string): Promise<{ id: string; lat: number; lng: number } | null>;
}

type Box = [number, number, number, number];

const intersects = (a: Box, b: Box) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

/** Distance from a point to the nearest point of a box (0 inside). */
function distanceToBoxM(lat: number, lng: number, box: Box): number {
  const nearestLng = Math.min(Math.max(lng, box[0]), box[2]);
  const nearestLat = Math.min(Math.max(lat, box[1]), box[3]);
  return haversineMeters(lat, lng, nearestLat, nearestLng);
}

/** Whether a campaign targets a map box: its target box intersects it, or its radius reaches it. */
export function targets(campaign: Pick<AdCampaignRecord, 'lat' | 'lng' | 'targetBbox' | 'radiusM'>, box: Box): boolean {
  if (campaign.targetBbox) return intersects(campaign.targetBbox, box);
  if (campaign.radiusM !== null) return distanceToBoxM(campaign.lat, campaign.lng, box) <= campaign.radiusM;
  return false;
}

const notFound = () => new ApiError('NOT_FOUND', { message: 'Campaign not found' });
const invalid = (message: string) => new ApiError('VALIDATION_ERROR', { message: [message] });

export class PromotedPlacements {
  constructor(
    private readonly repository: AdCampaignRepository,
    private readonly places: PlaceLookup,
    private readonly now: () => number = Date.now,
  ) {}

  private at(): string {
    return new Date(this.now()).toISOString();
  }

  /** GET /ads/promoted */
  async promoted(query: z.infer<typeof promotedQuery>) {
    const { minLng, minLat, maxLng, maxLat } = parseBbox(query.bbox);
    const box: Box = [minLng, minLat, maxLng, maxLat];
    const wanted = new Set((query.categories ?? '').split(',').map((part) => part.trim().toLowerCase()).filter(Boolean).slice(0, 20));
    const ads = (await this.repository.servable(this.at(), CANDIDATE_LIMIT))
      .filter((campaign) => targets(campaign, box))
      .filter((campaign) => wanted.size === 0 || campaign.categories.some((category) => wanted.has(category)))
      .slice(0, query.limit)
      .map((campaign) => ({
        id: campaign.id,
        type: 'promoted_pin' as const,
        placeId: campaign.placeId,
        title: campaign.title,
        subtitle: campaign.subtitle,
        imageUrl: campaign.imageUrl,
        ctaUrl: campaign.ctaUrl,
        lat: campaign.lat,
        lng: campaign.lng,
        sponsored: true as const,
      }));
    return { provider: 'svc-ads' as const, type: 'promoted_pin' as const, count: ads.length, ads };
  }

  /** POST /ads/{id}/click */
  async click(id: string, body: z.infer<typeof clickBody>) {
    const outcome = await this.repository.recordClick(id, body.clickId, body.source ?? null, this.at());
    if (!outcome) throw notFound();
    return {
      ok: true as const,
      id,
      clickId: body.clickId,
      duplicate: outcome.duplicate,
      charged: outcome.chargedMinor > 0,
      chargedMinor: outcome.chargedMinor,
      currency: outcome.campaign.currency,
      ctaUrl: outcome.campaign.ctaUrl,
    };
  }

  /** Place id → campaign id of the live campaigns promoting these places (search marks them sponsored). */
  async sponsoredPlaces(placeIds: readonly string[]): Promise<Map<string, string>> {
    const campaigns = await this.repository.servableForPlaces(this.at(), placeIds);
    const byPlace = new Map<string, string>();
    for (const campaign of campaigns) if (campaign.placeId && !byPlace.has(campaign.placeId)) byPlace.set(campaign.placeId, campaign.id);
    return byPlace;
  }

  // ── operators ──

  async create(id: string, body: CampaignBody) {
    return view(await this.repository.create(id, await this.fields(body)), this.now());
  }

  async update(id: string, patch: CampaignPatch) {
    const current = await this.repository.find(id);
    if (!current) throw notFound();
    const merged: CampaignBody = {
      placeId: current.placeId,
      title: current.title,
      subtitle: current.subtitle,
      imageUrl: current.imageUrl,
      ctaUrl: current.ctaUrl,
      categories: current.categories,
      lat: current.lat,
      lng: current.lng,
      targetBbox: current.targetBbox,
      radiusMeters: current.radiusM,
      currency: current.currency as CampaignBody['currency'],
      costPerClickMinor: current.costPerClickMinor,
      budgetMinor: current.budgetMinor,
      startsAt: current.startsAt,
      endsAt: current.endsAt,
      active: current.active,
      ...stripUndefined(patch),
    };
    // a new place moves the pin unless the patch places it itself
    if (patch.placeId !== undefined && patch.lat === undefined && patch.lng === undefined) {
      merged.lat = undefined;
      merged.lng = undefined;
    }
    // one targeting at a time: the one the patch names replaces the other
    if (patch.targetBbox) merged.radiusMeters = null;
    if (patch.radiusMeters) merged.targetBbox = null;
    const updated = await this.repository.update(id, await this.fields(merged));
    if (!updated) throw notFound();
    return view(updated, this.now());
  }

  async get(id: string) {
    const campaign = await this.repository.find(id);
    if (!campaign) throw notFound();
    return view(campaign, this.now());
  }

  async list(limit: number) {
    const nowMs = this.now();
    const items = (await this.repository.list(limit)).map((campaign) => view(campaign, nowMs));
    return { items, count: items.length };
  }

  async delete(id: string) {
    if (!(await this.repository.delete(id))) throw notFound();
    return { deleted: true, id };
  }

  /** Checks a whole campaign (after a patch too) and places the pin. */
  private async fields(body: CampaignBody): Promise<AdCampaignFields> {
    let { lat, lng } = body;
    let placeId: string | null = null;
    if (body.placeId) {
      const place = await this.places.find(body.placeId);
      if (!place) throw invalid(`placeId: no place "${body.placeId}"`);
      placeId = place.id;
      lat ??= place.lat;
      lng ??= place.lng;
    }
    if (lat === undefined || lng === undefined) throw invalid('lat, lng: required without placeId');
    const hasBox = Boolean(body.targetBbox);
    const hasRadius = body.radiusMeters !== undefined && body.radiusMeters !== null;
    if (hasBox === hasRadius) throw invalid('give exactly one of targetBbox and radiusMeters');
    if (body.targetBbox && (body.targetBbox[0] > body.targetBbox[2] || body.targetBbox[1] > body.targetBbox[3])) {
      throw invalid('targetBbox: must be [west, south, east, north] with west ≤ east and south ≤ north');
    }
    if (body.budgetMinor < body.costPerClickMinor) throw invalid('budgetMinor: must cover at least one click (costPerClickMinor)');
    if (body.startsAt && body.endsAt && Date.parse(body.endsAt) <= Date.parse(body.startsAt)) throw invalid('endsAt: must be after startsAt');
    return {
      placeId,
      title: body.title,
      subtitle: body.subtitle ?? null,
      imageUrl: body.imageUrl ?? null,
      ctaUrl: body.ctaUrl,
      categories: [...new Set(body.categories)],
      lat,
      lng,
      targetBbox: body.targetBbox ?? null,
      radiusM: hasRadius ? body.radiusMeters! : null,
      currency: body.currency,
      costPerClickMinor: body.costPerClickMinor,
      budgetMinor: body.budgetMinor,
      startsAt: body.startsAt ? new Date(body.startsAt).toISOString() : null,
      endsAt: body.endsAt ? new Date(body.endsAt).toISOString() : null,
      active: body.active,
    };
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}

/** Where a campaign stands: what an operator reads first. */
function statusOf(campaign: AdCampaignRecord, nowMs: number): 'paused' | 'scheduled' | 'ended' | 'budget_exhausted' | 'running' {
  if (!campaign.active) return 'paused';
  if (campaign.startsAt && Date.parse(campaign.startsAt) > nowMs) return 'scheduled';
  if (campaign.endsAt && Date.parse(campaign.endsAt) <= nowMs) return 'ended';
  if (campaign.spentMinor + campaign.costPerClickMinor > campaign.budgetMinor) return 'budget_exhausted';
  return 'running';
}

function view(campaign: AdCampaignRecord, nowMs: number) {
  const { radiusM, ...rest } = campaign;
  return { ...rest, radiusMeters: radiusM, remainingMinor: campaign.budgetMinor - campaign.spentMinor, status: statusOf(campaign, nowMs) };
}
