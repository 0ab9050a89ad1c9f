import { beforeAll, describe, expect, it } from 'vitest';
import { CalendarService } from '../calendars/calendar-service.js';
import { HijriCalendar } from '../calendars/hijri-calendar.js';
import { loadHolidayLibrary } from '../calendars/library-holidays.js';
import { AnnouncementBoard } from '../calendars/month-start-announcements.js';
import { fileTraversals } from './trip-ingestion.js';
import { ANY_DOW, bandOf, countryOrJordan, filingKey, gridCellOf, laplaceNoise, localClock, popularityCells, resolveProfile, type ProfileRow } from './traffic-model.js';

let calendars: CalendarService;

beforeAll(async () => {
  const board = new AnnouncementBoard();
  calendars = new CalendarService({ hijri: new HijriCalendar(board), library: await loadHolidayLibrary(), announced: board });
});

const traversal = (iso: string, lat = 30.06, lon = 31.33) => ({ segmentKey: 'w1:2-3', lengthMeters: 100, enteredAt: Date.parse(iso), leftAt: Date.parse(iso) + 10_000, speedKph: 36, freeFlowKph: 50, lat, lon });

describe('filing under the country-local day and hour', () => {
  it('a drive at 23:30 UTC in Amman is filed under the next local day (UTC+3)', () => {
    const at = Date.parse('2026-11-26T23:30:00Z'); // Thursday in UTC
    const key = filingKey('JO', at, calendars.flags('JO', at));
    expect(localClock('JO', at)).toEqual({ dow: 5, hour: 2, date: '2026-11-27' });
    // Friday is Jordan's weekend: the next local day decides the profile type as well as the hour
    expect(key).toMatchObject({ profileType: 'weekend', dow: 5, hour: 2, localDate: '2026-11-27' });
  });

  it('turns the local day at a half-hour offset minute by minute (Tehran, UTC+3:30), read in sequence', () => {
    const start = Date.parse('2026-11-26T20:00:00Z'); // 23:30 Thursday in Tehran
    const read = Array.from({ length: 61 }, (_, minute) => localClock('IR', start + minute * 60_000));
    expect(read[29]).toEqual({ dow: 4, hour: 23, date: '2026-11-26' });
    expect(read[30]).toEqual({ dow: 5, hour: 0, date: '2026-11-27' });
    expect(read.filter((clock) => clock.date === '2026-11-27')).toHaveLength(31);
  });

  it("uses Cairo's own offset, summer time included", () => {
    expect(localClock('EG', Date.parse('2026-11-26T23:30:00Z'))).toMatchObject({ date: '2026-11-27', hour: 1 });
    expect(localClock('EG', Date.parse('2026-07-01T23:30:00Z'))).toMatchObject({ date: '2026-07-02', hour: 2 });
    expect(localClock('EG', Date.parse('2026-11-26T21:30:00Z'))).toMatchObject({ date: '2026-11-26', hour: 23 });
  });

  it('files a road in Cairo under EG with its calendar: typical, weekend, holiday, Ramadan', () => {
    const [weekday, friday, ramadan] = fileTraversals([traversal('2026-11-24T06:00:00Z'), traversal('2026-11-27T06:00:00Z'), traversal('2027-02-20T15:00:00Z')], calendars);
    expect(weekday).toMatchObject({ country: 'EG', profileType: 'typical', dow: 2, hour: 8 });
    expect(friday).toMatchObject({ country: 'EG', profileType: 'weekend', dow: 5 });
    expect(calendars.flags('EG', Date.parse('2027-02-20T15:00:00Z')).isRamadan).toBe(true);
    expect(ramadan).toMatchObject({ country: 'EG', profileType: 'ramadan', dow: ANY_DOW, hour: 17 });
    const holidayAt = Date.parse('2026-07-23T08:00:00Z');
    expect(calendars.flags('EG', holidayAt).isHoliday).toBe(true);
    expect(fileTraversals([traversal('2026-07-23T08:00:00Z')], calendars)[0]).toMatchObject({ profileType: 'holiday', dow: ANY_DOW, hour: 11 });
  });

  it('a road outside the fifteen countries is filed as JO; unknown query countries read as JO', () => {
    expect(fileTraversals([traversal('2026-11-24T06:00:00Z', 48.85, 2.35)], calendars)[0]!.country).toBe('JO');
    expect(countryOrJordan('XX')).toBe('JO');
    expect(countryOrJordan('eg')).toBe('EG');
    expect(countryOrJordan(undefined)).toBe('JO');
  });
});

describe('profile fallback and labels', () => {
  const row = (profileType: ProfileRow['profileType'], dow: number, ratio: number, samples = 5): ProfileRow => ({
    segmentKey: 'w1:2-3', profileType, dow, hour: 8, country: 'EG', lat: 30, lng: 31, freeFlowKph: 50, sampleCount: samples, simulatedCount: 0, speedSum: ratio * 50 * samples, speedSqSum: 0, ratioSum: ratio * samples,
  });
  const clock = { dow: 2, hour: 8, date: '2027-02-16' };

  it('ramadan → holiday → weekend → typical, each only on a day that has the flag', () => {
    const rows = [row('ramadan', ANY_DOW, 0.3), row('typical', 2, 0.5)];
    expect(resolveProfile(rows, clock, { isRamadan: true, isHoliday: false, isWeekend: false })?.profileType).toBe('ramadan');
    expect(resolveProfile(rows, clock, { isRamadan: false, isHoliday: false, isWeekend: false })?.profileType).toBe('typical');
    expect(resolveProfile([row('typical', 2, 0.5)], clock, { isRamadan: true, isHoliday: true, isWeekend: false })?.profileType).toBe('typical');
    // a weekday without its own typical row pools the other weekdays at that hour
    const pooled = resolveProfile([row('typical', 1, 0.4), row('typical', 3, 0.6)], clock, { isRamadan: false, isHoliday: false, isWeekend: false });
    expect(pooled).toMatchObject({ profileType: 'typical', pooledDow: true, sums: { sampleCount: 10 } });
    expect(resolveProfile([row('typical', 2, 0.5)], { ...clock, hour: 9 }, { isRamadan: false, isHoliday: false, isWeekend: false })).toBeUndefined();
  });

  it('labels from the speed ratio', () => {
    expect([0.9, 0.7, 0.5, 0.2].map((ratio) => bandOf(ratio).label)).toEqual(['Low', 'Normal', 'High', 'Heavy']);
    expect([0.9, 0.7, 0.5, 0.2].map((ratio) => bandOf(ratio).congestion)).toEqual(['light', 'moderate', 'heavy', 'severe']);
  });
});

describe('popularity privacy', () => {
  const visits = (cellLat: number, contributors: number, perContributor = 5) =>
    Array.from({ length: contributors * perContributor }, (_, i) => ({ lat: cellLat + (i % 7) * 1e-5, lng: 31.33 + (i % 5) * 1e-5, contributor: `c${Math.floor(i / perContributor)}` }));

  it('a cell with fewer than 3 distinct contributors never appears, however many trips they made', () => {
    for (let draw = 0; draw < 200; draw++) {
      const cells = popularityCells([...visits(30.06, 2, 50), ...visits(30.02, 1, 100)], 14);
      expect(cells).toEqual([]);
    }
    const three = popularityCells(visits(30.06, 3), 14, () => 0);
    expect(three).toHaveLength(1);
    expect(three[0]!.count).toBe(3);
  });

  it('counts each contributor once per cell and snaps to the cell centre', () => {
    const [cell] = popularityCells(visits(30.06, 4, 20), 14, () => 0);
    const centre = gridCellOf(30.06, 31.33, 14);
    expect(cell).toEqual({ key: centre.key, count: 4, lat: centre.lat, lng: centre.lng });
    expect(popularityCells(visits(30.06, 4, 20), 14, () => 1.6)[0]!.count).toBe(6);
  });

  it('the noise is Laplace with scale 1/ε = 1: mean |x| = 1, variance 2, median 0', () => {
    const draws = Array.from({ length: 50_000 }, () => laplaceNoise(1));
    const meanAbs = draws.reduce((sum, x) => sum + Math.abs(x), 0) / draws.length;
    const mean = draws.reduce((sum, x) => sum + x, 0) / draws.length;
    const variance = draws.reduce((sum, x) => sum + (x - mean) ** 2, 0) / draws.length;
    expect(meanAbs).toBeGreaterThan(0.97);
    expect(meanAbs).toBeLessThan(1.03);
    expect(variance).toBeGreaterThan(1.88);
    expect(variance).toBeLessThan(2.12);
    expect(Math.abs(mean)).toBeLessThan(0.03);
    // P(|x| > 3) = e^-3 for scale 1
    const tail = draws.filter((x) => Math.abs(x) > 3).length / draws.length;
    expect(tail).toBeGreaterThan(Math.exp(-3) * 0.85);
    expect(tail).toBeLessThan(Math.exp(-3) * 1.15);
  });
});
