import type { Migration } from '../migrate.js';

/**
 * An operator's hold on one API key (PATCH /admin/api-keys/{id} `suspended`), apart from the owner's `active`
 * switch: a key an operator suspended stays refused whatever its owner sets, until an operator lifts the hold.
 */
export const keySuspensionMigration: Migration = {
  version: 11,
  name: 'key_suspension',
  sql: `alter table api_keys add column suspended boolean not null default false;`,
};
