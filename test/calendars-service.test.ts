/**
 * The calendar service in process: known Umm al-Qura dates, timezones, weekends,
 * the calendar flags, and month-start announcements moving every dependent surface
 * in every "process" that shares the store and the bus.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryBus } from '../src/actors/runtime/bus/memory-bus.js';
import { createSubjects } from '../src/actors/runtime/subjects.js';
import { adminCalendarRoutes } from '../src/edge/routes/admin-calendars.js';
import { holidayRoutes } from '../src/edge/routes/holidays.js';
import { ENDPOINT_TABLE } from '../src/services/access/endpoint-access.js';
import { holidaysListQuery, holidaysTodayQuery } from '../src/services/calendars/calendar-queries.js';
import { CalendarService, isWeekend } from '../src/services/calendars/calendar-service.js';
import { isoOfDay, parseIsoDay } from '../src/services/calendars/civil-days.js';
import { COUNTRY_CODES } from '../src/services/calendars/country-profiles.js';
import { HijriCalendar } from '../src/services/calendars/hijri-calendar.js';
import { type HolidayLibrary, loadHolidayLibrary } from '../src/services/calendars/library-holidays.js';
import { AnnouncementBoard, type MonthStartRecord, type MonthStartStore, MonthStartAnnouncements, type NewMonthStartRecord } from '../src/services/calendars/month-start-announcements.js';
import { ApiError } from '../src/shared/errors.js';
import { createLogger } from '../src/shared/logger.js';

let library: HolidayLibrary;
beforeAll(async () => {
  library = await loadHolidayLibrary();
});

class MemoryMonthStartStore implements MonthStartStore {
  readonly rows: MonthStartRecord[] = [];
  async append(record: NewMonthStartRecord): Promise<MonthStartRecord> {
    const row = { ...record, id: String(this.rows.length + 1), createdAt: new Date().toISOString() };
    this.rows.push(row);
    return row;
  }
  async latest(): Promise<MonthStartRecord[]> {
    const newest = new Map<string, MonthStartRecord>();
    for (const row of this.rows) newest.set(`${row.country}:${row.hijriYear}:${row.hijriMonth}`, row);
    return [...newest.values()];
  }
  async history(country: string, hijriYear: number): Promise<MonthStartRecord[]> {
    return this.rows.filter((row) => row.country === country && row.hijriYear === hijriYear);
  }
}

/** One server process's calendars over a shared store and bus. */
async function process_(store: MonthStartStore, bus: MemoryBus, now: number = Date.now()) {
  const board = new AnnouncementBoard();
  const hijri = new HijriCalendar(board);
  const calendars = new CalendarService({ hijri, library, announced: board, now: () => now, placeAt: (lat) => (lat > 30.5 ? { country: 'jo', city: 'Amman' } : { country: 'eg' }) });
  const announcements = new MonthStartAnnouncements({ store, board, hijri, bus, subjects: createSubjects('calendar_test'), logger: createLogger({ LOG_LEVEL: 'silent' }), refreshIntervalMs: 60_000 });
  await announcements.start();
  return { calendars, announcements, hijri };
}

const day = (iso: string) => parseIsoDay(iso)!;
const at = (iso: string) => Date.parse(iso);

describe('Umm al-Qura (Saudi Arabia)', () => {
  // The Umm al-Qura calendar's dates as Saudi Arabia kept them: 1 Ramadan, 1 Shawwal (Eid al-Fitr), 10 Dhu al-Hijjah (Eid al-Adha)
  const known: [number, string, string, string][] = [
    [1441, '2020-04-24', '2020-05-24', '2020-07-31'],
    [1442, '2021-04-13', '2021-05-13', '2021-07-20'],
    [1443, '2022-04-02', '2022-05-02', '2022-07-09'],
    [1444, '2023-03-23', '2023-04-21', '2023-06-28'],
    [1445, '2024-03-11', '2024-04-10', '2024-06-16'],
    [1446, '2025-03-01', '2025-03-30', '2025-06-06'],
  ];
  it.each(known)('%i AH: Ramadan %s, Eid al-Fitr %s, Eid al-Adha %s', async (year, ramadan, fitr, adha) => {
    const { calendars } = await process_(new MemoryMonthStartStore(), new MemoryBus());
    const answer = calendars.hijriYear({ country: 'SA', year });
    expect(answer).toMatchObject({ method: 'umm_al_qura', events: { ramadanStart: ramadan, eidAlFitr: fitr, eidAlAdha: adha, arafah: isoOfDay(day(adha) - 1) } });
    expect(answer.months).toHaveLength(12);
    expect(answer.months.every((month) => month.status === 'expected')).toBe(true);
  });

  it("follows Türkiye's Diyanet calendar (IHCU rule, its American exception included)", async () => {
    const { calendars } = await process_(new MemoryMonthStartStore(), new MemoryBus());
    // Diyanet's published dates: Ramadan, Ramazan Bayramı, Kurban Bayramı
    const diyanet: [number, string, string, string][] = [
      [1444, '2023-03-23', '2023-04-21', '2023-06-28'],
      [1445, '2024-03-11', '2024-04-10', '2024-06-16'],
      [1446, '2025-03-01', '2025-03-30', '2025-06-06'],
      [1447, '2026-02-19', '2026-03-20', '2026-05-27'],
    ];
    for (const [year, ramadan, fitr, adha] of diyanet) {
      expect(calendars.hijriYear({ country: 'TR', year }).events, String(year)).toMatchObject({ ramadanStart: ramadan, eidAlFitr: fitr, eidAlAdha: adha });
    }
  });

  it('dates every month of every country from 1344 to 1499 AH within 29–30 days of the one before', async () => {
    const { hijri } = await process_(new MemoryMonthStartStore(), new MemoryBus());
    for (const country of COUNTRY_CODES) {
      for (const year of [1344, 1420, 1447, 1499]) {
        const table = hijri.yearTable(country, year);
        const starts = [...table.months.map((month) => month.start), table.end];
        for (let index = 1; index < starts.length; index++) expect(starts[index]! - starts[index - 1]!, `${country} ${year}/${index}`).toBeGreaterThanOrEqual(29);
        for (let index = 1; index < starts.length; index++) expect(starts[index]! - starts[index - 1]!, `${country} ${year}/${index}`).toBeLessThanOrEqual(30);
      }
    }
  }, 120_000);
});

describe('timezones, weekends and flags', () => {
  it("resolves an instant in the country's own timezone", async () => {
    const { calendars } = await process_(new MemoryMonthStartStore(), new MemoryBus());
    // 21:30 UTC on 29 March 2025 is already 30 March (Eid al-Fitr) in Riyadh (+3), still the 29th in Cairo (+2)
    expect(calendars.today(holidaysTodayQuery.parse({ country: 'SA', at: '2025-03-29T21:30:00Z' })).holiday).toMatchObject({ name: 'Eid al-Fitr', nameAr: 'عيد الفطر' });
    expect(calendars.today(holidaysTodayQuery.parse({ country: 'SA', at: '2025-03-29T20:30:00Z' })).holiday).toBeNull();
    expect(calendars.today(holidaysTodayQuery.parse({ country: 'EG', at: '2025-03-29T21:30:00Z' })).holiday).toBeNull();
    // Tehran is UTC+3:30
    expect(calendars.localDay('IR', at('2025-03-20T20:29:00Z'))).toBe(day('2025-03-20'));
    expect(calendars.localDay('IR', at('2025-03-20T20:31:00Z'))).toBe(day('2025-03-21'));
  });

  it('keeps each country its weekend, with the changes of Saudi Arabia (2013) and the UAE (2022)', () => {
    const friday = day('2025-03-07');
    expect(['JO', 'SA', 'EG', 'IQ', 'IR'].every((country) => isWeekend(country as 'JO', friday))).toBe(true);
    expect(isWeekend('TR', friday) || isWeekend('LB', friday) || isWeekend('AE', friday)).toBe(false);
    expect(isWeekend('AE', day('2025-03-09'))).toBe(true); // Sunday
    expect(isWeekend('AE', day('2021-03-05'))).toBe(true); // Friday, before 2022
    expect(isWeekend('SA', day('2012-03-08'))).toBe(true); // Thursday, before mid-2013
    expect(isWeekend('SA', day('2025-03-08'))).toBe(true); // Saturday
    expect(isWeekend('IR', day('2025-03-08'))).toBe(false);
  });

  it('answers the calendar flags of a country or a point, cached per half hour', async () => {
    const { calendars } = await process_(new MemoryMonthStartStore(), new MemoryBus());
    expect(calendars.flags('JO', at('2025-03-10T09:00:00Z'))).toEqual({ isHoliday: false, isWeekend: false, isRamadan: true, holiday: null });
    expect(calendars.flags('JO', at('2025-05-25T09:00:00Z'))).toMatchObject({ isHoliday: true, isWeekend: false, isRamadan: false, holiday: { name: 'Independence Day', type: 'national' } });
    expect(calendars.flags('JO', at('2025-05-25T09:00:00Z'))).toBe(calendars.flags('JO', at('2025-05-25T09:10:00Z')));
    expect(calendars.flagsAt(31.95, 35.93, at('2025-05-25T09:00:00Z'))).toMatchObject({ country: 'JO', isHoliday: true });
    expect(calendars.flagsAt(30.05, 31.3, at('2025-10-06T09:00:00Z'))).toMatchObject({ country: 'EG', holiday: { name: 'Armed Forces Day' } });
    // city holidays count only with the city
    expect(calendars.flags('IQ', at('2025-03-05T09:00:00Z')).holiday).toBeNull();
    expect(calendars.flags('IQ', at('2025-03-05T09:00:00Z'), 'Erbil').holiday).toMatchObject({ name: 'Kurdistan Uprising Day' });
    expect(calendars.flags('IQ', at('2025-03-05T09:00:00Z'), 'أربيل').holiday).toMatchObject({ name: 'Kurdistan Uprising Day' });
  });

  it('expands recurring holidays within a window and lists rules without one', async () => {
    const { calendars } = await process_(new MemoryMonthStartStore(), new MemoryBus(), at('2025-06-01T12:00:00Z'));
    const windowed = calendars.list(holidaysListQuery.parse({ country: 'JO', from: '2024-12-01', to: '2026-01-31' }));
    expect(windowed.filter((holiday) => holiday.name === "New Year's Day").map((holiday) => holiday.date)).toEqual(['2025-01-01', '2026-01-01']);
    expect(windowed.every((holiday) => holiday.date !== null && holiday.enabled)).toBe(true);
    const rules = calendars.list(holidaysListQuery.parse({ country: 'JO' }));
    expect(rules.find((holiday) => holiday.id === 'JO-independence-day')).toMatchObject({ recurring: true, month: 5, day: 25, date: null });
    expect(rules.find((holiday) => holiday.name === 'Eid al-Adha')).toMatchObject({ recurring: false, month: null, day: null, date: '2025-06-06' });
    const iraq = calendars.list(holidaysListQuery.parse({ country: 'IQ', from: '2025-03-01', to: '2025-03-31' }));
    expect(new Set(iraq.map((holiday) => holiday.city))).toEqual(new Set([null, 'Erbil', 'Sulaymaniyah', 'Duhok', 'Halabja']));
    const erbil = calendars.list(holidaysListQuery.parse({ country: 'IQ', city: 'erbil', from: '2025-03-01', to: '2025-03-31' }));
    expect(new Set(erbil.map((holiday) => holiday.city))).toEqual(new Set([null, 'Erbil']));
  });

  it('refuses bad queries with a message that says what would do', () => {
    const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues.map((issue) => issue.message).join('; ');
    expect(messages(holidaysListQuery.safeParse({ country: 'ZZ' }))).toMatch(/unknown country "ZZ": must be one of JO, SA/);
    expect(messages(holidaysListQuery.safeParse({ from: '2025-02-30' }))).toMatch(/not a date: use YYYY-MM-DD/);
    expect(messages(holidaysListQuery.safeParse({ from: '2025-03-01', to: '2025-02-01' }))).toMatch(/must not be before from/);
    expect(messages(holidaysListQuery.safeParse({ from: '2020-01-01', to: '2030-01-02' }))).toMatch(/at most 10 years/);
    expect(messages(holidaysListQuery.safeParse({ from: '1900-01-01' }))).toMatch(/must lie within 1926-01-01 to 2075-12-31/);
    expect(messages(holidaysTodayQuery.safeParse({ at: '2025-03-01T10:00:00' }))).toMatch(/not an ISO 8601 instant/);
    expect(messages(holidaysListQuery.safeParse({ country: ['JO', 'SA'] }))).toMatch(/must be given once/);
  });
});

describe('month-start announcements', () => {
  it('announce → confirm → correct → withdraw moves Eid, upcoming and estimated in every process', async () => {
    const store = new MemoryMonthStartStore();
    const bus = new MemoryBus();
    const now = at('2027-02-20T09:00:00Z');
    const first = await process_(store, bus, now);
    const second = await process_(store, bus, now);
    const shawwal = { country: 'JO' as const, hijriYear: 1448, hijriMonth: 10 };
    const computed = first.hijri.computedStart('JO', 1448, 10);
    const eidOf = (calendars: CalendarService) => calendars.upcoming({ country: 'JO', days: 60 }).holidays.find((holiday) => holiday.name === 'Eid al-Fitr');
    expect(eidOf(second.calendars)).toMatchObject({ date: isoOfDay(computed), estimated: true });

    await first.announcements.set('operator-1', shawwal, computed + 1, 'announced');
    await bus.flush();
    await new Promise((resolve) => setTimeout(resolve, 10));
    for (const { calendars } of [first, second]) {
      expect(eidOf(calendars)).toMatchObject({ date: isoOfDay(computed + 1), estimated: false });
      expect(calendars.hijriYear({ country: 'JO', year: 1448 }).months[9]).toMatchObject({ start: isoOfDay(computed + 1), status: 'announced' });
      expect(calendars.on({ country: 'JO', date: isoOfDay(computed) }).holiday?.name).not.toBe('Eid al-Fitr');
      expect(calendars.on({ country: 'JO', date: isoOfDay(computed + 1) }).holiday?.name).toBe('Eid al-Fitr');
      // Ramadan lasts one day longer: the flags follow
      expect(calendars.flags('JO', computed * 86_400_000 + 9 * 3_600_000)).toMatchObject({ isRamadan: true });
    }

    await first.announcements.set('operator-2', shawwal, computed + 1, 'confirmed');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(second.calendars.hijriYear({ country: 'JO', year: 1448 }).months[9]!.status).toBe('confirmed');

    await first.announcements.set('operator-2', shawwal, computed, 'confirmed', 'corrected after the Iftaa statement');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(eidOf(second.calendars)).toMatchObject({ date: isoOfDay(computed), estimated: false });

    await first.announcements.withdraw('operator-1', shawwal);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(eidOf(second.calendars)).toMatchObject({ date: isoOfDay(computed), estimated: true });
    expect((await first.announcements.history('JO', 1448)).map((row) => [row.status, row.actorId])).toEqual([
      ['announced', 'operator-1'],
      ['confirmed', 'operator-2'],
      ['confirmed', 'operator-2'],
      ['withdrawn', 'operator-1'],
    ]);
  });

  it("moves the countries that follow Saudi Arabia with Saudi Arabia's announcement", async () => {
    const { calendars, announcements, hijri } = await process_(new MemoryMonthStartStore(), new MemoryBus());
    const dhuAlHijjah = hijri.computedStart('SA', 1447, 12);
    await announcements.set('operator', { country: 'SA', hijriYear: 1447, hijriMonth: 12 }, dhuAlHijjah - 1, 'announced');
    for (const country of ['SA', 'KW', 'QA', 'BH', 'YE'] as const) {
      expect(calendars.hijriYear({ country, year: 1447 }).events.eidAlAdha, country).toBe(isoOfDay(dhuAlHijjah + 8));
    }
    expect(calendars.hijriYear({ country: 'JO', year: 1447 }).months[11]!.status).toBe('expected');
  });

  it('refuses a start more than 3 days from the computed one', async () => {
    const { announcements, hijri } = await process_(new MemoryMonthStartStore(), new MemoryBus());
    const computed = hijri.computedStart('EG', 1448, 9);
    const refused = await announcements.set('operator', { country: 'EG', hijriYear: 1448, hijriMonth: 9 }, computed + 4, 'announced').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 'MONTH_START_IMPLAUSIBLE', details: { computed: isoOfDay(computed) } });
    await expect(announcements.withdraw('operator', { country: 'EG', hijriYear: 1448, hijriMonth: 9 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('endpoint rows', () => {
  it('serve the holiday reads openly under the places scope, and month starts to operators only', () => {
    const none = {} as never;
    for (const route of [...holidayRoutes(none), ...adminCalendarRoutes(none)]) {
      const row = ENDPOINT_TABLE.find(route.method, route.mount, route.path);
      const expected = route.path.startsWith('/admin/') ? { access: 'admin', scopes: [] } : { access: 'open', scopes: ['places'] };
      expect({ endpoint: `${route.method} ${route.path}`, access: row?.access, scopes: row?.scopes }).toEqual({ endpoint: `${route.method} ${route.path}`, ...expected });
    }
  });
});
