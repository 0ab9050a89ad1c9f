import type { Migration } from '../migrate.js';

/**
 * Hijri month starts announced, confirmed, corrected or withdrawn by operators
 * (docs/calendars.md, "Announcements"). Append only: each change is a row with
 * who and when; the start in force is the newest row of its month.
 */
export const hijriMonthStartsMigration: Migration = {
  version: 12,
  name: 'hijri-month-starts',
  sql: `
    create table hijri_month_starts (
      id bigserial primary key,
      country text not null,
      hijri_year integer not null,
      hijri_month integer not null check (hijri_month between 1 and 12),
      start_date date not null,
      status text not null check (status in ('announced', 'confirmed', 'withdrawn')),
      actor_id text,
      note text,
      created_at timestamptz not null default clock_timestamp()
    );
    create index hijri_month_starts_month on hijri_month_starts (country, hijri_year, hijri_month, id desc);
  `,
};
