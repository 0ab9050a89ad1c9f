/**
 * Filling the EV station catalogue (docs/ev.md): an Open Charge Map export
 * replaces the OCM records (`npm run ingest -- --ev`), the map pack's OSM
 * charging stations replace the OSM records at start when the pack changed;
 * either rebuilds the merged stations.
 */
import type { MapPack } from '../../datapack/map-pack.js';
import type { EvSourceStation } from '../../domain/ev-station.js';
import { packChargers } from '../../ingest/ev/osm-chargers.js';
import type { Logger } from '../../shared/logger.js';
import type { EvStationRepository } from '../../store/pg/ev-stations.js';
import { mergeStations } from './station-merge.js';

/** Bump when what is derived from the same pack changes: the next start re-reads it. */
export const OSM_CHARGERS_VERSION = 1;

/** Replaces the OCM stations with an export's (read with readOcmExport) and rebuilds the merged ones. */
export async function replaceOcmStations(repository: EvStationRepository, records: readonly EvSourceStation[], path: string, now: Date): Promise<{ records: number; stations: number }> {
  return repository.replaceSource('ocm', records, `ocm|${path}|${now.toISOString()}`, mergeStations);
}

/** Reads the pack's charging stations when the pack (its sha256) is not the one last read. */
export async function seedPackChargers(repository: EvStationRepository, pack: MapPack, logger: Logger): Promise<void> {
  const stamp = `${pack.header.source.sha256}|osm-chargers-${OSM_CHARGERS_VERSION}`;
  if ((await repository.stamp('osm')) === stamp) return;
  const started = performance.now();
  const result = await repository.replaceSource('osm', packChargers(pack), stamp, mergeStations);
  logger.info({ osmChargers: result.records, stations: result.stations, ms: Math.round(performance.now() - started) }, 'EV stations read from the map pack');
}
