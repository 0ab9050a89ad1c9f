/**
 * `npm run ingest -- --ev <export.json|folder>`: loads an Open Charge Map export
 * into the database the server uses (DATABASE_URL, else the embedded one under
 * DATA_DIR), replacing the OCM stations imported before, and merges them with
 * the map pack's OSM charging stations (docs/ev.md).
 */
import { loadConfig } from '../shared/config.js';
import { readOcmExport } from '../ingest/ev/ocm-reader.js';
import { replaceOcmStations } from '../services/ev/ev-catalog.js';
import { EvStationRepository } from '../store/pg/ev-stations.js';
import { applyMigrations } from '../store/sql/migrate.js';
import { migrations } from '../store/sql/migrations/index.js';
import { openSql } from '../wiring/backends.js';

export async function importEv(path: string): Promise<string> {
  const started = performance.now();
  // the export is read (and refused, naming the file) before the database is opened
  const records = readOcmExport(path);
  const config = loadConfig(process.env);
  const sql = await openSql(config);
  try {
    await applyMigrations(sql, config.DATABASE_SCHEMA, migrations);
    const result = await replaceOcmStations(new EvStationRepository(sql), records, path, new Date());
    return `imported ${result.records} Open Charge Map stations from ${path} in ${((performance.now() - started) / 1000).toFixed(2)} s: ${result.stations} stations after merging with OSM`;
  } finally {
    await sql.close();
  }
}
