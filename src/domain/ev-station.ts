/**
 * EV charging stations (spec part 3 §2.7): the record the API shows, and the
 * per-source records it is merged from (Open Charge Map exports, OSM
 * `amenity=charging_station` in the map pack). docs/ev.md.
 */

/** Connector families the `/ev/stations?connector=` filter knows (spec part 3 §4.6). */
export const EV_CONNECTOR_FILTERS = ['CCS', 'CHAdeMO', 'Type2', 'Tesla', 'GB/T'] as const;
export type EvConnectorFilter = (typeof EV_CONNECTOR_FILTERS)[number];
/** Every connector `type` a station may show: the filter families plus what no filter names. */
export type EvConnectorType = EvConnectorFilter | 'Type1' | 'Schuko' | 'Other';

export type EvStationStatus = 'operational' | 'offline' | 'unknown';

export interface EvConnector {
  type: EvConnectorType;
  /** Rated power in kW; null when the source does not say. */
  kw: number | null;
  count: number;
}

export type EvSource = 'ocm' | 'osm';

/** One station as one source describes it. */
export interface EvSourceStation {
  source: EvSource;
  /** `188265` (OCM POI id) or `node/123` / `way/45` (OSM element). */
  sourceId: string;
  name: string | null;
  /** Operator or network; null when the source names none. */
  network: string | null;
  lat: number;
  lng: number;
  connectors: EvConnector[];
  status: EvStationStatus;
  pricing: string | null;
  address: string | null;
}

/** A station as the API shows it: one site, possibly described by several sources. */
export interface EvStation {
  id: string;
  name: string;
  network: string | null;
  lat: number;
  lng: number;
  connectors: EvConnector[];
  maxKw: number | null;
  status: EvStationStatus;
  pricing: string | null;
  address: string | null;
  /** Which source records the site merges, e.g. `["ocm:188265", "osm:node/123"]`. */
  sources: string[];
}
