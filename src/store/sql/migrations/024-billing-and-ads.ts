import type { Migration } from '../migrate.js';

/**
 * Subscriptions, entitlements and promoted placements (spec part 3 §4.9, §4.10; docs/billing.md,
 * docs/ads.md). `subscriptions` are the payment provider's records as its signed webhook reported them
 * (`provider_ref` is its id, `last_event_at` keeps an older event from undoing a newer one);
 * `entitlement_overrides` are an operator's grants and revocations, which win over subscriptions;
 * `billing_webhook_events` holds every accepted event id (replay protection). `ad_campaigns` are the
 * operators' campaigns with their spend; `ad_clicks` one row per (campaign, client click id), so a retried
 * click is recorded and billed once. Impressions are not stored.
 */
export const billingAndAdsMigration: Migration = {
  version: 24,
  name: 'billing-and-ads',
  sql: `
    create table subscriptions (
      id uuid primary key,
      user_id uuid not null references users(id) on delete cascade,
      provider_ref text not null unique,
      product text not null,
      status text not null,
      currency text not null,
      price_minor bigint not null,
      interval text not null,
      renews_at timestamptz,
      last_event_at timestamptz not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index subscriptions_user on subscriptions (user_id);

    create table entitlement_overrides (
      user_id uuid not null references users(id) on delete cascade,
      entitlement text not null,
      state text not null,
      expires_at timestamptz,
      reason text,
      changed_by uuid,
      changed_at timestamptz not null default now(),
      primary key (user_id, entitlement)
    );

    create table billing_webhook_events (
      event_id text primary key,
      type text not null,
      received_at timestamptz not null default now()
    );

    create table ad_campaigns (
      id uuid primary key,
      place_id text,
      title text not null,
      subtitle text,
      image_url text,
      cta_url text not null,
      categories jsonb not null default '[]',
      lat double precision not null,
      lng double precision not null,
      target_west double precision,
      target_south double precision,
      target_east double precision,
      target_north double precision,
      radius_m integer,
      currency text not null,
      cost_per_click_minor bigint not null,
      budget_minor bigint not null,
      spent_minor bigint not null default 0,
      clicks integer not null default 0,
      starts_at timestamptz,
      ends_at timestamptz,
      active boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table ad_clicks (
      campaign_id uuid not null references ad_campaigns(id) on delete cascade,
      click_id text not null,
      charged_minor bigint not null,
      source text,
      created_at timestamptz not null default now(),
      primary key (campaign_id, click_id)
    );
  `,
};
