/**
 * "Avoid the city centre" in the planner (docs/routing.md, "Routing constraints"): the historic or commercial
 * core of each city the platform serves, as a circle around a central square. The map packs carry no
 * city-centre boundary (OSM has none; Nasr City's extract has only neighbourhood nodes), so the cores are
 * this table's, approximate by design: a radius that covers the old town's dense grid, not an official area.
 * The engine avoids an area as an excluded polygon, so each circle is sent as a 24-sided polygon.
 */
export interface CityCentre {
  city: { en: string; ar: string };
  /** The central square the circle is drawn round. */
  lat: number;
  lon: number;
  radiusMeters: number;
}

export const CITY_CENTRES: readonly CityCentre[] = [
  { city: { en: 'Amman', ar: 'عمّان' }, lat: 31.9515, lon: 35.9335, radiusMeters: 1_000 }, // Al-Balad, round the Husseini Mosque
  { city: { en: 'Irbid', ar: 'إربد' }, lat: 32.5556, lon: 35.85, radiusMeters: 800 },
  { city: { en: 'Zarqa', ar: 'الزرقاء' }, lat: 32.0608, lon: 36.0942, radiusMeters: 800 },
  { city: { en: 'Aqaba', ar: 'العقبة' }, lat: 29.5267, lon: 35.0078, radiusMeters: 800 },
  { city: { en: 'Cairo', ar: 'القاهرة' }, lat: 30.048, lon: 31.2405, radiusMeters: 1_500 }, // Wust El Balad, Tahrir to Ataba
  { city: { en: 'Riyadh', ar: 'الرياض' }, lat: 24.6318, lon: 46.7133, radiusMeters: 1_500 }, // Al-Dirah
  { city: { en: 'Jeddah', ar: 'جدة' }, lat: 21.4858, lon: 39.1864, radiusMeters: 1_000 }, // Al-Balad
  { city: { en: 'Dubai', ar: 'دبي' }, lat: 25.2637, lon: 55.2972, radiusMeters: 1_500 }, // the Creek: Deira and Bur Dubai
  { city: { en: 'Monaco', ar: 'موناكو' }, lat: 43.7396, lon: 7.4276, radiusMeters: 350 }, // Monte-Carlo, Place du Casino
];

/** A city centre is the plan's when it lies this close to the locations' middle. */
export const CITY_CENTRE_REACH_METERS = 30_000;
const POLYGON_SIDES = 24;
const METERS_PER_DEGREE = 111_320;

/** The centre of the city the plan is in: the nearest one within reach of the locations' middle, if any. */
export function cityCentreOf(locations: readonly { lat: number; lon: number }[]): CityCentre | undefined {
  const lat = locations.reduce((sum, location) => sum + location.lat, 0) / locations.length;
  const lon = locations.reduce((sum, location) => sum + location.lon, 0) / locations.length;
  let best: { centre: CityCentre; meters: number } | undefined;
  for (const centre of CITY_CENTRES) {
    const meters = Math.hypot((centre.lat - lat) * METERS_PER_DEGREE, (centre.lon - lon) * METERS_PER_DEGREE * Math.cos((lat * Math.PI) / 180));
    if (meters <= CITY_CENTRE_REACH_METERS && (!best || meters < best.meters)) best = { centre, meters };
  }
  return best?.centre;
}

/** The centre's circle as a closed ring of `[lon, lat]` points (what the engine's excluded polygons take). */
export function centreRing(centre: CityCentre): [number, number][] {
  const ring: [number, number][] = [];
  const dLat = centre.radiusMeters / METERS_PER_DEGREE;
  const dLon = dLat / Math.cos((centre.lat * Math.PI) / 180);
  for (let side = 0; side < POLYGON_SIDES; side++) {
    const angle = (2 * Math.PI * side) / POLYGON_SIDES;
    ring.push([centre.lon + dLon * Math.cos(angle), centre.lat + dLat * Math.sin(angle)]);
  }
  ring.push(ring[0]!);
  return ring;
}
