import type { Migration } from '../migrate.js';

/**
 * Every accepted fix moves `expires_at`; an index on it made each of those
 * updates touch the index too. Without it the per-fix update is a HOT update
 * (only the primary key is indexed, and it never changes). The expiry sweep,
 * once a minute, scans the active sessions instead.
 */
export const navigationHotUpdatesMigration: Migration = {
  version: 8,
  name: 'navigation_hot_updates',
  sql: `
    drop index if exists nav_sessions_active_expiry;
    alter table nav_sessions set (fillfactor = 70);
  `,
};
