/**
 * `npm run ingest -- --gtfs <feed.zip|folder> [--feed-name NAME]`: loads a GTFS
 * static feed into the database the server uses (DATABASE_URL, else the
 * embedded one under DATA_DIR), replacing a feed of the same name atomically.
 */
import { basename } from 'node:path';
import { readGtfsFeed } from '../ingest/gtfs/gtfs-reader.js';
import type { IngestProgress } from '../ingest/progress.js';
import { loadConfig } from '../shared/config.js';
import { TransitFeedRepository } from '../store/pg/transit-feeds.js';
import { applyMigrations } from '../store/sql/migrate.js';
import { migrations } from '../store/sql/migrations/index.js';
import { openSql } from '../wiring/backends.js';

export function gtfsFeedName(path: string): string {
  return basename(path.replace(/[/\\]+$/, '')).replace(/\.zip$/i, '');
}

export async function importGtfs(path: string, name: string, progress: IngestProgress): Promise<string> {
  const config = loadConfig(process.env);
  const sql = await openSql(config);
  try {
    await applyMigrations(sql, config.DATABASE_SCHEMA, migrations);
    const started = performance.now();
    let counts: Record<string, number> = {};
    const feed = await new TransitFeedRepository(sql).replaceFeed(name, path, async (sink) => {
      counts = (await readGtfsFeed(path, sink, progress)).rows as Record<string, number>;
      return counts;
    });
    const summary = Object.entries(counts)
      .map(([table, count]) => `${count} ${table}`)
      .join(', ');
    return `imported GTFS feed "${feed.name}" (id ${feed.id}) from ${path} in ${((performance.now() - started) / 1000).toFixed(2)} s: ${summary}`;
  } finally {
    await sql.close();
  }
}
