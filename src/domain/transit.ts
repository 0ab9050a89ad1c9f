/** Rows of a GTFS static feed as the import writes them and the transit service reads them (docs/transit.md). */

export interface GtfsRows {
  agency: { agencyId: string; name: string; url: string | null; timezone: string };
  stops: { stopId: string; name: string; lat: number; lng: number; locationType: number; parentStation: string | null };
  routes: { routeId: string; agencyId: string | null; shortName: string | null; longName: string | null; routeType: number; color: string | null };
  trips: { tripId: string; routeId: string; serviceId: string; shapeId: string | null; headsign: string | null };
  /** Seconds after the service day's start; null where the feed leaves a non-timepoint blank. */
  stopTimes: { tripId: string; stopSequence: number; stopId: string; arrivalS: number | null; departureS: number | null };
  frequencies: { tripId: string; startS: number; endS: number; headwayS: number };
  /** `weekdays` bit 0 Monday … bit 6 Sunday; dates YYYYMMDD. */
  calendar: { serviceId: string; weekdays: number; startDate: number; endDate: number };
  calendarDates: { serviceId: string; date: number; exceptionType: 1 | 2 };
  shapes: { shapeId: string; sequence: number; lat: number; lng: number };
}

export type GtfsTable = keyof GtfsRows;

/** Receives a feed's rows in batches, table by table. */
export type GtfsSink = <T extends GtfsTable>(table: T, rows: Array<GtfsRows[T]>) => Promise<void>;

/** GTFS route_type codes the API names (part 2 §2.8, §4.6); extended codes map by their hundreds. */
export function routeTypeLabel(code: number): 'tram' | 'metro' | 'rail' | 'bus' | 'ferry' | 'other' {
  const basic: Record<number, 'tram' | 'metro' | 'rail' | 'bus' | 'ferry'> = { 0: 'tram', 1: 'metro', 2: 'rail', 3: 'bus', 4: 'ferry', 5: 'tram', 11: 'bus', 12: 'rail' };
  if (basic[code]) return basic[code];
  if (code >= 100 && code < 200) return 'rail';
  if (code >= 200 && code < 300) return 'bus';
  if (code >= 400 && code < 500) return 'metro';
  if (code >= 700 && code < 800) return 'bus';
  if (code >= 900 && code < 1000) return 'tram';
  if (code >= 1000 && code < 1100) return 'ferry';
  return 'other';
}
