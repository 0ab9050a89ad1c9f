import type { SqlClient } from '../sql/sql-client.js';
import { isoOf, isoOrNull } from './row-mapping.js';

/** An operator's promoted-placement campaign (docs/ads.md). */
export interface AdCampaignRecord {
  id: string;
  placeId: string | null;
  title: string;
  subtitle: string | null;
  imageUrl: string | null;
  ctaUrl: string;
  categories: string[];
  lat: number;
  lng: number;
  /** Where it is shown: a box [west, south, east, north], or a radius around the pin. */
  targetBbox: [number, number, number, number] | null;
  radiusM: number | null;
  currency: string;
  costPerClickMinor: number;
  budgetMinor: number;
  spentMinor: number;
  clicks: number;
  startsAt: string | null;
  endsAt: string | null;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

export type AdCampaignFields = Omit<AdCampaignRecord, 'id' | 'spentMinor' | 'clicks' | 'createdAt' | 'updatedAt'>;

interface Row extends Record<string, unknown> {
  id: string;
  place_id: string | null;
  title: string;
  subtitle: string | null;
  image_url: string | null;
  cta_url: string;
  categories: unknown;
  lat: unknown;
  lng: unknown;
  target_west: unknown;
  target_south: unknown;
  target_east: unknown;
  target_north: unknown;
  radius_m: unknown;
  currency: string;
  cost_per_click_minor: unknown;
  budget_minor: unknown;
  spent_minor: unknown;
  clicks: unknown;
  starts_at: Date | string | null;
  ends_at: Date | string | null;
  active: boolean;
  created_at: Date | string;
  updated_at: Date | string;
}

const COLUMNS =
  'id, place_id, title, subtitle, image_url, cta_url, categories, lat, lng, target_west, target_south, target_east, target_north, radius_m, currency, cost_per_click_minor, budget_minor, spent_minor, clicks, starts_at, ends_at, active, created_at, updated_at';

const toRecord = (row: Row): AdCampaignRecord => ({
  id: row.id,
  placeId: row.place_id,
  title: row.title,
  subtitle: row.subtitle,
  imageUrl: row.image_url,
  ctaUrl: row.cta_url,
  categories: (typeof row.categories === 'string' ? JSON.parse(row.categories) : row.categories) as string[],
  lat: Number(row.lat),
  lng: Number(row.lng),
  targetBbox: row.target_west === null ? null : [Number(row.target_west), Number(row.target_south), Number(row.target_east), Number(row.target_north)],
  radiusM: row.radius_m === null ? null : Number(row.radius_m),
  currency: row.currency,
  costPerClickMinor: Number(row.cost_per_click_minor),
  budgetMinor: Number(row.budget_minor),
  spentMinor: Number(row.spent_minor),
  clicks: Number(row.clicks),
  startsAt: isoOrNull(row.starts_at),
  endsAt: isoOrNull(row.ends_at),
  active: row.active,
  createdAt: isoOf(row.created_at),
  updatedAt: isoOf(row.updated_at),
});

const fieldParams = (fields: AdCampaignFields) => [
  fields.placeId,
  fields.title,
  fields.subtitle,
  fields.imageUrl,
  fields.ctaUrl,
  JSON.stringify(fields.categories),
  fields.lat,
  fields.lng,
  fields.targetBbox?.[0] ?? null,
  fields.targetBbox?.[1] ?? null,
  fields.targetBbox?.[2] ?? null,
  fields.targetBbox?.[3] ?? null,
  fields.radiusM,
  fields.currency,
  fields.costPerClickMinor,
  fields.budgetMinor,
  fields.startsAt,
  fields.endsAt,
  fields.active,
];

/** Servable at $1: active, within its schedule and with budget for one more click. */
const SERVABLE = `active and (starts_at is null or starts_at <= $1) and (ends_at is null or ends_at > $1) and spent_minor + cost_per_click_minor <= budget_minor`;

export interface ClickOutcome {
  campaign: AdCampaignRecord;
  duplicate: boolean;
  chargedMinor: number;
}

export class AdCampaignRepository {
  constructor(private readonly sql: SqlClient) {}

  async create(id: string, fields: AdCampaignFields): Promise<AdCampaignRecord> {
    const rows = await this.sql.query<Row>(
      `insert into ad_campaigns (id, place_id, title, subtitle, image_url, cta_url, categories, lat, lng, target_west, target_south, target_east,
         target_north, radius_m, currency, cost_per_click_minor, budget_minor, starts_at, ends_at, active)
       values ($1, $2, $3, $4, $5, $6, $7::text::jsonb, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
       returning ${COLUMNS}`,
      [id, ...fieldParams(fields)],
    );
    return toRecord(rows[0]!);
  }

  async update(id: string, fields: AdCampaignFields): Promise<AdCampaignRecord | null> {
    const rows = await this.sql.query<Row>(
      `update ad_campaigns set place_id = $2, title = $3, subtitle = $4, image_url = $5, cta_url = $6, categories = $7::text::jsonb, lat = $8, lng = $9,
         target_west = $10, target_south = $11, target_east = $12, target_north = $13, radius_m = $14, currency = $15, cost_per_click_minor = $16,
         budget_minor = $17, starts_at = $18, ends_at = $19, active = $20, updated_at = now()
       where id = $1 returning ${COLUMNS}`,
      [id, ...fieldParams(fields)],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async find(id: string): Promise<AdCampaignRecord | null> {
    const rows = await this.sql.query<Row>(`select ${COLUMNS} from ad_campaigns where id = $1`, [id]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async list(limit: number): Promise<AdCampaignRecord[]> {
    const rows = await this.sql.query<Row>(`select ${COLUMNS} from ad_campaigns order by created_at desc, id limit $1`, [limit]);
    return rows.map(toRecord);
  }

  async delete(id: string): Promise<boolean> {
    return (await this.sql.query('delete from ad_campaigns where id = $1 returning id', [id])).length > 0;
  }

  /** Campaigns that may be shown at `at` (the caller filters by area and categories), highest bid first. */
  async servable(at: string, limit: number): Promise<AdCampaignRecord[]> {
    const rows = await this.sql.query<Row>(`select ${COLUMNS} from ad_campaigns where ${SERVABLE} order by cost_per_click_minor desc, id limit $2`, [at, limit]);
    return rows.map(toRecord);
  }

  /** Servable campaigns promoting one of these places. */
  async servableForPlaces(at: string, placeIds: readonly string[]): Promise<AdCampaignRecord[]> {
    if (placeIds.length === 0) return [];
    const rows = await this.sql.query<Row>(
      `select ${COLUMNS} from ad_campaigns where ${SERVABLE} and place_id in (select jsonb_array_elements_text($2::text::jsonb))
       order by cost_per_click_minor desc, id limit 100`,
      [at, JSON.stringify(placeIds)],
      // every search page: one round trip, not two
      { prepared: true },
    );
    return rows.map(toRecord);
  }

  /**
   * Records a click once per (campaign, clickId) and charges the cost per click when the campaign is
   * servable at `at` with budget left: one transaction, the budget checked and spent in one conditional
   * update, so concurrent clicks never overspend. A repeated clickId answers what the first one did.
   * Null for an unknown campaign.
   */
  async recordClick(campaignId: string, clickId: string, source: string | null, at: string): Promise<ClickOutcome | null> {
    return this.sql.transaction(async (tx) => {
      const inserted = await tx.query(
        `insert into ad_clicks (campaign_id, click_id, charged_minor, source) select id, $2, 0, $3 from ad_campaigns where id = $1
         on conflict (campaign_id, click_id) do nothing returning click_id`,
        [campaignId, clickId, source],
      );
      if (inserted.length === 0) {
        const earlier = await tx.query<{ charged_minor: unknown }>('select charged_minor from ad_clicks where campaign_id = $1 and click_id = $2', [campaignId, clickId]);
        if (earlier.length === 0) return null;
        const campaign = await tx.query<Row>(`select ${COLUMNS} from ad_campaigns where id = $1`, [campaignId]);
        return { campaign: toRecord(campaign[0]!), duplicate: true, chargedMinor: Number(earlier[0]!.charged_minor) };
      }
      const charged = await tx.query<Row>(
        `update ad_campaigns set spent_minor = spent_minor + cost_per_click_minor, clicks = clicks + 1
         where id = $2 and ${SERVABLE} returning ${COLUMNS}`,
        [at, campaignId],
      );
      if (charged[0]) {
        const campaign = toRecord(charged[0]);
        await tx.query('update ad_clicks set charged_minor = $3 where campaign_id = $1 and click_id = $2', [campaignId, clickId, campaign.costPerClickMinor]);
        return { campaign, duplicate: false, chargedMinor: campaign.costPerClickMinor };
      }
      const campaign = await tx.query<Row>(`select ${COLUMNS} from ad_campaigns where id = $1`, [campaignId]);
      return { campaign: toRecord(campaign[0]!), duplicate: false, chargedMinor: 0 };
    });
  }
}
