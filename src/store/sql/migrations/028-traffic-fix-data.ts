import type { Migration } from '../migrate.js';

/**
 * A trip's raw fixes in a compact column (issue #27, docs/traffic.md "Durability and processing"):
 * `fix_data` holds them packed, 24 bytes a fix (lat, lng, t as little-endian float64, fix after fix),
 * written on intake and read back by the claim, instead of the JSON array of 017's `fixes`. The JSON,
 * written and parsed by the intake's own thread, was a third of its non-matching CPU. `fixes` stays for
 * rows stored before (or by a process still on the old code during a rolling start): the claim reads
 * whichever a row has, filing and failing clear both, and the retention purge deletes whole rows.
 */
export const trafficFixDataMigration: Migration = {
  version: 28,
  name: 'traffic-fix-data',
  sql: 'alter table traffic_trips add column fix_data bytea;',
};
