/**
 * Where the assistant's facts come from (spec part 3 §4.7 "grounded"): places from the live place
 * search, traffic now from the traffic model's labels at this moment, and usual/tomorrow/what-if/
 * best-time questions from the learned profiles at that time and the departure optimizer, labelled
 * `typical` or `expected`, never live. The area is the coordinates in `context` when it carries a
 * "lat,lng" pair, else a city named in the message, else the whole learned map.
 */
import { localClock } from '../traffic/traffic-model.js';
import type { CountryCode } from '../calendars/country-profiles.js';
import { searchQuery } from '../search/search-queries.js';
import type { SearchService } from '../search/search-service.js';
import type { TrafficService } from '../traffic/traffic-service.js';
import type { Intent, ReplyLanguage } from './intent.js';
import type { GroundedPlace } from './replies.js';

export type PlaceSearch = Pick<SearchService, 'ranked'>;
export type TrafficSource = Pick<TrafficService, 'labels' | 'departOptimizer'>;

interface Area {
  bbox: string;
  country: CountryCode;
  name: { en: string; ar: string } | null;
  near?: { lat: number; lng: number };
}

const CITIES: { pattern: RegExp; bbox: string; country: CountryCode; en: string; ar: string }[] = [
  { pattern: /\bnasr city\b|مدينه نصر|مدينة نصر/i, bbox: '31.28,30.02,31.40,30.10', country: 'EG', en: 'Nasr City', ar: 'مدينة نصر' },
  { pattern: /\bcairo\b|القاهره|القاهرة/i, bbox: '31.10,29.90,31.50,30.20', country: 'EG', en: 'Cairo', ar: 'القاهرة' },
  { pattern: /\bamman\b|عمان|عمّان/i, bbox: '35.75,31.85,36.05,32.08', country: 'JO', en: 'Amman', ar: 'عمّان' },
  { pattern: /\birbid\b|اربد|إربد/i, bbox: '35.78,32.50,35.90,32.60', country: 'JO', en: 'Irbid', ar: 'إربد' },
  { pattern: /\bzarqa\b|الزرقاء|الزرقا/i, bbox: '36.03,32.03,36.15,32.12', country: 'JO', en: 'Zarqa', ar: 'الزرقاء' },
  { pattern: /\baqaba\b|العقبه|العقبة/i, bbox: '34.95,29.45,35.10,29.60', country: 'JO', en: 'Aqaba', ar: 'العقبة' },
  { pattern: /\briyadh\b|الرياض/i, bbox: '46.50,24.50,46.95,24.95', country: 'SA', en: 'Riyadh', ar: 'الرياض' },
  { pattern: /\bjeddah\b|جده|جدة/i, bbox: '39.05,21.35,39.35,21.75', country: 'SA', en: 'Jeddah', ar: 'جدة' },
  { pattern: /\bdubai\b|دبي/i, bbox: '55.10,24.95,55.45,25.35', country: 'AE', en: 'Dubai', ar: 'دبي' },
];
const WORLD = '-180,-90,180,90';
const COORDINATES = /(-?\d{1,2}\.\d{2,})\s*,\s*(-?\d{1,3}\.\d{2,})/;

export function areaOf(message: string, context: string | undefined): Area {
  const found = context ? COORDINATES.exec(context) : null;
  if (found) {
    const lat = Number(found[1]);
    const lng = Number(found[2]);
    if (Math.abs(lat) <= 90 && Math.abs(lng) <= 180) {
      const box = [lng - 0.05, lat - 0.05, lng + 0.05, lat + 0.05].map((value) => value.toFixed(4)).join(',');
      return { bbox: box, country: 'JO', name: null, near: { lat, lng } };
    }
  }
  const city = CITIES.find((candidate) => candidate.pattern.test(message));
  return city ? { bbox: city.bbox, country: city.country, name: { en: city.en, ar: city.ar } } : { bbox: WORLD, country: 'JO', name: null };
}

/**
 * The live place search for a query: at most `limit` places, names in the reply language. The index's ranked
 * page is enough (no listing shape: records, photos and holiday flags would cost two more queries and the
 * calendar for fields the reply never shows).
 */
export async function searchPlaces(search: PlaceSearch, query: string, language: ReplyLanguage, area: Area, limit: number): Promise<GroundedPlace[]> {
  const parsed = searchQuery.parse({ q: query.slice(0, 256), limit: String(limit), ...(area.near ? { near: `${area.near.lat},${area.near.lng}` } : {}) });
  const candidates = await search.ranked(parsed);
  return candidates.map((candidate) => ({
    slug: candidate.slug,
    name: (language === 'ar' ? (candidate.nameAr ?? candidate.nameEn) : (candidate.nameEn ?? candidate.nameAr)) ?? candidate.slug,
    category: candidate.canonicalCategory ?? null,
    rating: candidate.rating ?? null,
    lat: candidate.lat,
    lng: candidate.lng,
  }));
}

export interface TrafficFacts {
  /** `live`: the model's labels now; `typical`: learned profiles at another time; `expected`: a what-if on top of typical. */
  basis: 'live' | 'typical' | 'expected';
  at: string;
  area: string | null;
  segments: number;
  counts: Record<'Heavy' | 'High' | 'Normal' | 'Low', number>;
  recommendedDeparture?: string | null;
  worstDeparture?: string | null;
  simulated: boolean;
}

/** The instant whose local hour in `country` is `hour`, on the local day of `fromMs` plus `daysAhead`. */
export function localHourInstant(country: CountryCode, fromMs: number, hour: number, daysAhead: number): number {
  const day = localClock(country, fromMs + daysAhead * 86_400_000).date;
  for (let offset = -12; offset <= 14; offset++) {
    const at = Date.parse(`${day}T${String(hour).padStart(2, '0')}:00:00Z`) - offset * 3_600_000;
    const local = localClock(country, at);
    if (local.hour === hour && local.date === day) return at;
  }
  return fromMs;
}

export async function trafficFacts(traffic: TrafficSource, intent: Intent, area: Area, nowMs: number): Promise<TrafficFacts> {
  const areaName = area.name?.en ?? null;
  if (intent.topic === 'best_departure') {
    const best = await traffic.departOptimizer({ bbox: area.bbox, from: '6', to: '22' });
    return {
      basis: 'typical',
      at: new Date(nowMs).toISOString(),
      area: areaName,
      segments: best.basedOnSamples,
      counts: { Heavy: 0, High: 0, Normal: 0, Low: 0 },
      recommendedDeparture: best.recommendedDeparture,
      worstDeparture: best.worstDeparture,
      simulated: best.simulated,
    };
  }
  let atMs = nowMs;
  let basis: TrafficFacts['basis'] = 'live';
  if (intent.topic === 'traffic_typical') {
    basis = intent.rain ? 'expected' : 'typical';
    const hour = intent.hour ?? localClock(area.country, nowMs).hour;
    atMs = localHourInstant(area.country, nowMs, hour, intent.tomorrow ? 1 : intent.hour !== undefined && hour <= localClock(area.country, nowMs).hour ? 1 : 0);
  }
  const answer = await traffic.labels({ bbox: area.bbox, at: new Date(atMs).toISOString() });
  const counts = { Heavy: 0, High: 0, Normal: 0, Low: 0 };
  for (const label of answer.labels) if (label.label in counts) counts[label.label as keyof typeof counts]++;
  return { basis, at: answer.at, area: areaName, segments: answer.count, counts, simulated: answer.labels.some((label) => label.simulated) };
}

/** A one- or two-sentence traffic reply; typical and expected answers say so, and none claims to be live unless it is. */
export function trafficReply(facts: TrafficFacts, language: ReplyLanguage, areaAr: string | null): string {
  const ar = language === 'ar';
  const where = ar ? (areaAr ? ` في ${areaAr}` : '') : facts.area ? ` in ${facts.area}` : '';
  if (facts.recommendedDeparture !== undefined) {
    if (!facts.recommendedDeparture) return ar ? `لا توجد بيانات مرور مكتسبة${where} لاقتراح وقت مغادرة.` : `No traffic has been learned${where} to suggest a departure time.`;
    return ar
      ? `عادةً، أفضل وقت للمغادرة${where} في أيام العمل هو ${facts.recommendedDeparture} وأسوأه ${facts.worstDeparture} (نمط معتاد، ليس مباشرًا).`
      : `Typically, the best time to leave${where} on working days is ${facts.recommendedDeparture} and the worst ${facts.worstDeparture} (typical pattern, not live).`;
  }
  if (facts.segments === 0) {
    if (facts.basis === 'live') return ar ? `لا توجد بيانات مرور حالية${where} الآن.` : `I have no current traffic data${where} right now.`;
    return ar ? `لم يُتعلَّم نمط مرور معتاد${where} لذلك الوقت (لا تقدير متوقع).` : `No typical traffic pattern has been learned${where} for that time, so there is no expected figure.`;
  }
  const busy = facts.counts.Heavy + facts.counts.High;
  const share = Math.round((100 * busy) / facts.segments);
  const level = share >= 40 ? ['heavy', 'مزدحمة'] : share >= 15 ? ['moderate', 'متوسطة'] : ['light', 'خفيفة'];
  const time = facts.at.slice(11, 16);
  if (facts.basis === 'live') {
    return ar
      ? `حركة المرور الآن${where} ${level[1]}: ${busy} من ${facts.segments} مقطعًا مزدحمة حسب نموذج المرور الحالي.`
      : `Traffic now${where} is ${level[0]}: ${busy} of ${facts.segments} road segments are busy in the current traffic model.`;
  }
  if (facts.basis === 'expected') {
    return ar
      ? `المتوقع${where} عند ${time} بالتوقيت العالمي: مرور ${level[1]} عادةً، والمطر يبطئه عادة أكثر (تقدير متوقع، ليس مباشرًا).`
      : `Expected${where} at ${time} UTC: typically ${level[0]} traffic, and rain usually makes it slower (an expectation, not live).`;
  }
  return ar
    ? `عادةً${where} عند ${time} بالتوقيت العالمي تكون حركة المرور ${level[1]}: ${busy} من ${facts.segments} مقطعًا مزدحمة (نمط معتاد، ليس مباشرًا).`
    : `Typically${where} at ${time} UTC traffic is ${level[0]}: ${busy} of ${facts.segments} road segments are usually busy (typical pattern, not live).`;
}
