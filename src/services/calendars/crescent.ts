/**
 * Astronomical month starts (astronomy-engine: VSOP87 and the ELP lunar
 * theory, arc-second precision): the conjunction near a guess, then the first
 * evening on which a criterion holds; the month begins the next day.
 */
import { AngleFromSun, Body, Equator, Horizon, Observer, SearchMoonPhase, SearchRiseSet, SiderealTime } from 'astronomy-engine';
import { type DayNumber, dayOfUtcInstant } from './civil-days.js';

/** Where a crescent is looked for. */
export interface Place {
  lat: number;
  lon: number;
}

const MS_PER_DAY = 86_400_000;
const MS_PER_HOUR = 3_600_000;
const DEGREES = Math.PI / 180;

/** The crescent as seen at one place at sunset. */
interface EveningSky {
  sunsetMs: number;
  moonAltitude: number;
  elongation: number;
}

/** The first new moon (conjunction) after five days before a guess, as epoch milliseconds: the one a month starting near the guess follows. */
export function conjunctionNear(guess: DayNumber): number {
  const found = SearchMoonPhase(0, new Date((guess - 5) * MS_PER_DAY), 10);
  if (!found) throw new Error(`no conjunction within 5 days of day ${guess}`);
  return found.date.getTime();
}

function eveningSky(place: Place, evening: DayNumber): EveningSky | undefined {
  const observer = new Observer(place.lat, place.lon, 0);
  // from local noon (approximately: the longitude's mean time), the next sunset is that date's
  const localNoonMs = evening * MS_PER_DAY + (12 - place.lon / 15) * MS_PER_HOUR;
  const sunset = SearchRiseSet(Body.Sun, observer, -1, new Date(localNoonMs), 1);
  if (!sunset) return undefined;
  const moon = Equator(Body.Moon, sunset, observer, true, true);
  return { sunsetMs: sunset.date.getTime(), moonAltitude: Horizon(sunset, observer, moon.ra, moon.dec, 'normal').altitude, elongation: AngleFromSun(Body.Moon, sunset) };
}

/** Minutes the moon sets after the sun on an evening at a place (negative: before). */
function moonLagMinutes(place: Place, sunsetMs: number): number {
  const observer = new Observer(place.lat, place.lon, 0);
  // the moon set within 6 h before the sun too: look from a bit before sunset
  const moonset = SearchRiseSet(Body.Moon, observer, -1, new Date(sunsetMs - 6 * MS_PER_HOUR), 1);
  return moonset ? (moonset.date.getTime() - sunsetMs) / 60_000 : Number.NEGATIVE_INFINITY;
}

export interface VisibilityCriterion {
  /** Degrees of the moon above the horizon at sunset (refracted, topocentric). */
  minAltitude: number;
  /** Degrees between the moon and the sun at sunset. */
  minElongation: number;
}

/**
 * Expectations for sighting countries, calibrated on the dates they announced in 2010–2025 (the
 * reference snapshots): most committees accept a sighting as soon as the moon sets after the sun
 * (the Umm al-Qura condition, at their own capital); Lebanon's a little later; the strict
 * naked-eye committees (Oman, Iraq, Iran) wait for a crescent high and far from the sun.
 */
export const MOON_ABOVE_HORIZON: VisibilityCriterion = Object.freeze({ minAltitude: 0, minElongation: 0 });
export const EARLY_CRESCENT: VisibilityCriterion = Object.freeze({ minAltitude: 0, minElongation: 6 });
export const NAKED_EYE_CRESCENT: VisibilityCriterion = Object.freeze({ minAltitude: 5, minElongation: 10.5 });
/** The 2016 International Hijri Calendar Union congress (Istanbul) thresholds. */
export const IHCU_CRITERION: VisibilityCriterion = Object.freeze({ minAltitude: 5, minElongation: 8 });
/** Egypt: the moon sets at least this many minutes after the sun, the conjunction before sunset. */
export const EGYPT_MIN_MOON_LAG_MINUTES = 5;

/** Evenings from the conjunction's date on; the month begins the day after the first that qualifies. */
function firstQualifyingEvening(conjunctionMs: number, firstEvening: DayNumber, qualifies: (evening: DayNumber) => boolean): DayNumber {
  for (let evening = firstEvening; evening < firstEvening + 4; evening++) {
    if (qualifies(evening)) return evening + 1;
  }
  // never reached on Earth (the crescent is visible by the third evening after the conjunction at the latest)
  return dayOfUtcInstant(conjunctionMs) + 3;
}

/** The month start expected by sighting at one place: the crescent high enough and far enough from the sun at sunset. */
export function sightingMonthStart(place: Place, conjunctionMs: number, criterion: VisibilityCriterion): DayNumber {
  const firstEvening = dayOfUtcInstant(conjunctionMs + (place.lon / 15) * MS_PER_HOUR);
  return firstQualifyingEvening(conjunctionMs, firstEvening, (evening) => crescentVisibleAt(place, evening, conjunctionMs, criterion));
}

/** Egypt's calculation: conjunction before sunset and the moon setting at least 5 minutes after the sun, at Cairo. */
export function calculationMonthStart(place: Place, conjunctionMs: number): DayNumber {
  const firstEvening = dayOfUtcInstant(conjunctionMs + (place.lon / 15) * MS_PER_HOUR);
  return firstQualifyingEvening(conjunctionMs, firstEvening, (evening) => {
    const sky = eveningSky(place, evening);
    return !!sky && sky.sunsetMs > conjunctionMs && moonLagMinutes(place, sky.sunsetMs) >= EGYPT_MIN_MOON_LAG_MINUTES;
  });
}

const SUNSET_ALTITUDE = -0.833;
const IHCU_LATITUDES = Array.from({ length: 25 }, (_, index) => -60 + index * 5);

/** West coast points of mainland America, where the IHCU exception looks for the crescent after 00:00 UTC. */
const AMERICAS_WEST: readonly Place[] = [
  { lat: 60.5, lon: -145.8 }, // Alaska (Valdez)
  { lat: 47.6, lon: -122.3 }, // Seattle
  { lat: 34, lon: -118.2 }, // Los Angeles
  { lat: 20.6, lon: -105.2 }, // Puerto Vallarta
  { lat: 0, lon: -80.1 }, // Ecuador
  { lat: -12, lon: -77 }, // Lima
  { lat: -33.5, lon: -71.6 }, // Valparaíso
  { lat: -53.2, lon: -70.9 }, // Punta Arenas
];
/** New Zealand's dawn (about 05:00 at UTC+12) of the day a month would begin: 17:00 UTC the evening before. */
const NEW_ZEALAND_DAWN_HOUR_UTC = 17;

function crescentVisibleAt(place: Place, evening: DayNumber, conjunctionMs: number, criterion: VisibilityCriterion): boolean {
  const sky = eveningSky(place, evening);
  return !!sky && sky.sunsetMs > conjunctionMs && sky.moonAltitude >= criterion.minAltitude && sky.elongation >= criterion.minElongation;
}

/** Whether the crescent qualifies at sunset somewhere on Earth before 00:00 UTC. */
function visibleBeforeMidnightUtc(evening: DayNumber, conjunctionMs: number, criterion: VisibilityCriterion): boolean {
  const midnight = new Date((evening + 1) * MS_PER_DAY);
  if (midnight.getTime() <= conjunctionMs) return false;
  if (AngleFromSun(Body.Moon, midnight) < criterion.minElongation) return false;
  const sun = Equator(Body.Sun, midnight, new Observer(0, 0, 0), true, true);
  const siderealDegrees = SiderealTime(midnight) * 15;
  for (const latitude of IHCU_LATITUDES) {
    const cosHourAngle = (Math.sin(SUNSET_ALTITUDE * DEGREES) - Math.sin(latitude * DEGREES) * Math.sin(sun.dec * DEGREES)) / (Math.cos(latitude * DEGREES) * Math.cos(sun.dec * DEGREES));
    if (cosHourAngle < -1 || cosHourAngle > 1) continue; // no sunset that day
    const hourAngle = Math.acos(cosHourAngle) / DEGREES;
    const longitude = ((((hourAngle - siderealDegrees + sun.ra * 15) % 360) + 540) % 360) - 180;
    const observer = new Observer(latitude, longitude, 0);
    const moon = Equator(Body.Moon, midnight, observer, true, true);
    if (Horizon(midnight, observer, moon.ra, moon.dec, 'normal').altitude >= criterion.minAltitude) return true;
  }
  return false;
}

/**
 * The IHCU (2016 Istanbul congress) rule Türkiye's Diyanet applies: the month begins the next day
 * everywhere when, somewhere on Earth, the sun sets before 00:00 UTC with the crescent at least 5°
 * high and 8° from the sun; or, failing that, when it does so in mainland America (after 00:00 UTC)
 * and the conjunction came before dawn in New Zealand. For each latitude the place that qualifies
 * best before 00:00 UTC is the westernmost one whose sunset is just at 00:00 UTC (the moon climbs
 * away from the sun as the evening moves west), so each latitude is checked there; America is checked
 * along its west coast.
 */
export function ihcuMonthStart(conjunctionMs: number, criterion: VisibilityCriterion = IHCU_CRITERION): DayNumber {
  return firstQualifyingEvening(conjunctionMs, dayOfUtcInstant(conjunctionMs), (evening) => {
    if (visibleBeforeMidnightUtc(evening, conjunctionMs, criterion)) return true;
    if (conjunctionMs >= evening * MS_PER_DAY + NEW_ZEALAND_DAWN_HOUR_UTC * MS_PER_HOUR) return false;
    return AMERICAS_WEST.some((place) => crescentVisibleAt(place, evening, conjunctionMs, criterion));
  });
}
