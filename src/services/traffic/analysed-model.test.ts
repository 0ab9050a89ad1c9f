import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { adjustmentsFor, ANALYSED_MULTIPLIERS, expectedTraffic, isEidName, twoHourWindows, type AnalysedContext } from './analysed-model.js';
import { sunsetOn } from './iftar.js';
import { schoolBreakOn, SCHOOL_CALENDARS } from './school-calendar.js';
import { localClock } from './traffic-model.js';
import { conditionOf } from '../weather/weather-conditions.js';
import { parseHourly } from '../weather/open-meteo-forecast.js';
import { outlookText } from './analysed-outlook.js';

const plain: AnalysedContext = { country: 'EG', hour: 8, month: 11, learnedType: 'typical', isWeekend: false, holidayName: null, isEid: false, schoolBreak: null, isRamadan: false, minutesFromIftar: null, weather: null };

describe('analysed-traffic adjustments', () => {
  it('applies nothing on a plain working day: the learned ratio is the expectation', () => {
    expect(adjustmentsFor(plain)).toEqual([]);
    expect(expectedTraffic(0.5, [])).toMatchObject({ speedRatio: 0.5, delayPct: 100, congestion: 'heavy' });
  });

  it('scales the extra travel time, so lighter factors raise the ratio and heavier ones lower it, within (0, 1]', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.05, max: 0.99, noNaN: true }), fc.double({ min: 0.1, max: 3, noNaN: true }), (ratio, multiplier) => {
        const adjusted = expectedTraffic(ratio, [{ factor: 'weather', multiplier, reason: '' }]);
        const extra = 1 / ratio - 1;
        expect(adjusted.delayPct).toBeCloseTo(extra * multiplier * 100, 0);
        expect(adjusted.speedRatio).toBeGreaterThan(0);
        expect(adjusted.speedRatio).toBeLessThanOrEqual(1);
        if (multiplier > 1.01) expect(adjusted.speedRatio).toBeLessThanOrEqual(Math.round(ratio * 1000) / 1000);
        if (multiplier < 0.99) expect(adjusted.speedRatio).toBeGreaterThanOrEqual(Math.round(ratio * 1000) / 1000);
      }),
    );
  });

  it('Eid and holidays apply only where no holiday profile was learned', () => {
    expect(adjustmentsFor({ ...plain, holidayName: 'Eid al-Fitr', isEid: true })).toEqual([expect.objectContaining({ factor: 'eid', multiplier: ANALYSED_MULTIPLIERS.eid })]);
    expect(adjustmentsFor({ ...plain, holidayName: 'Revolution Day' })).toEqual([expect.objectContaining({ factor: 'public-holiday' })]);
    expect(adjustmentsFor({ ...plain, holidayName: 'Eid al-Fitr', isEid: true, learnedType: 'holiday' })).toEqual([]);
    expect(isEidName('Eid al-Adha Holiday')).toBe(true);
    expect(isEidName('Eve of Eid al-Adha (afternoon off)')).toBe(false);
    expect(isEidName('Eid al-Ghadir')).toBe(false);
  });

  it('school breaks weigh the school run most, and not at weekends', () => {
    expect(adjustmentsFor({ ...plain, schoolBreak: 'Summer school holiday' })[0]).toMatchObject({ factor: 'school-break', multiplier: ANALYSED_MULTIPLIERS.schoolBreakSchoolRun });
    expect(adjustmentsFor({ ...plain, hour: 11, schoolBreak: 'Summer school holiday' })[0]).toMatchObject({ multiplier: ANALYSED_MULTIPLIERS.schoolBreakOther });
    expect(adjustmentsFor({ ...plain, isWeekend: true, schoolBreak: 'Summer school holiday' })).toEqual([]);
  });

  it('the hour before iftar is heavier, the hour after lighter, unless Ramadan was learned', () => {
    const ramadan = { ...plain, isRamadan: true, learnedType: 'typical' as const };
    expect(adjustmentsFor({ ...ramadan, minutesFromIftar: -30 })[0]).toMatchObject({ factor: 'before-iftar', multiplier: ANALYSED_MULTIPLIERS.beforeIftar });
    expect(adjustmentsFor({ ...ramadan, minutesFromIftar: 30 })[0]).toMatchObject({ factor: 'after-iftar', multiplier: ANALYSED_MULTIPLIERS.afterIftar });
    expect(adjustmentsFor({ ...ramadan, minutesFromIftar: 90 })).toEqual([]);
    expect(adjustmentsFor({ ...ramadan, minutesFromIftar: 30, learnedType: 'ramadan' })).toEqual([]);
  });

  it('month: the Gulf summer only', () => {
    expect(adjustmentsFor({ ...plain, country: 'AE', month: 8 })).toEqual([expect.objectContaining({ factor: 'month', multiplier: 0.85 })]);
    expect(adjustmentsFor({ ...plain, country: 'JO', month: 8 })).toEqual([]);
  });

  it('two-hour windows need two consecutive known hours', () => {
    const hours = [0.9, null, 0.5, 0.4, 0.8, 0.85].map((speedRatio, index) => ({ index, speedRatio }));
    const { best, worst } = twoHourWindows(hours);
    expect(best!.map((hour) => hour.index)).toEqual([4, 5]);
    expect(worst!.map((hour) => hour.index)).toEqual([2, 3]);
    expect(twoHourWindows([{ index: 0, speedRatio: 0.5 }, { index: 1, speedRatio: null }])).toEqual({ best: null, worst: null });
  });
});

describe('calendars the model reads', () => {
  it('school breaks: every country has a source; a break over the new year covers both sides', () => {
    expect(Object.keys(SCHOOL_CALENDARS)).toHaveLength(15);
    expect(schoolBreakOn('JO', '2026-12-30')?.name).toBe('Mid-year school holiday');
    expect(schoolBreakOn('JO', '2027-01-10')?.name).toBe('Mid-year school holiday');
    expect(schoolBreakOn('JO', '2027-03-10')).toBeUndefined();
    expect(schoolBreakOn('EG', '2027-07-06')?.name).toBe('Summer school holiday');
  });

  it('iftar is sunset at the point on the local date (Cairo, early March: about 17:50 local)', () => {
    const ms = sunsetOn(30.05, 31.25, 'EG', '2027-03-01')!;
    const clock = localClock('EG', ms);
    expect(clock.date).toBe('2027-03-01');
    expect(clock.hour).toBe(17);
    const minutes = new Date(ms).getUTCMinutes();
    expect(minutes).toBeGreaterThanOrEqual(40);
  });
});

describe('weather', () => {
  it('condition words from the hourly fields, most severe first', () => {
    expect(conditionOf({ weatherCode: 95 })).toBe('storm');
    expect(conditionOf({ windGustsKph: 80 })).toBe('storm');
    expect(conditionOf({ precipitationMm: 6, weatherCode: 63 })).toBe('heavy_rain');
    expect(conditionOf({ precipitationMm: 1, weatherCode: 61 })).toBe('rain');
    expect(conditionOf({ windGustsKph: 50, visibilityM: 2000, precipitationMm: 0 })).toBe('dust');
    expect(conditionOf({ weatherCode: 45 })).toBe('fog');
    expect(conditionOf({ weatherCode: 3, precipitationMm: 0 })).toBe('clear');
  });

  it('reads Open-Meteo hourly columns (unix or ISO times) and refuses other shapes', () => {
    expect(parseHourly({ hourly: { time: [1_800_000_000], precipitation: [2], weather_code: [61] } })).toEqual([{ atMs: 1_800_000_000_000, precipitationMm: 2, weatherCode: 61 }]);
    expect(parseHourly({ hourly: { time: ['2027-01-01T05:00'], precipitation: [null] } })).toEqual([{ atMs: Date.parse('2027-01-01T05:00:00Z') }]);
    expect(parseHourly({ error: true })).toBeUndefined();
    expect(parseHourly('nope')).toBeUndefined();
  });
});

describe('outlook words', () => {
  const facts = { known: true, date: '2026-11-26', dow: 4, dayType: 'working' as const, holiday: null, schoolBreak: null, iftarHour: null, weather: null };
  it('names the heaviest and the best windows, and says it is not live', () => {
    const text = outlookText('en', { ...facts, worst: { startHour: 7, congestion: 'heavy', speedRatio: 0.43 }, best: { startHour: 20, speedRatio: 0.8 } });
    expect(text.body).toContain('07:00–09:00 (heavy)');
    expect(text.body).toContain('20:00–22:00');
    expect(text.body).toContain('not live');
  });

  it('a day whose windows hardly differ is said to be flat, in both languages', () => {
    const flat = { ...facts, worst: { startHour: 7, congestion: 'heavy', speedRatio: 0.43 }, best: { startHour: 17, speedRatio: 0.44 } };
    expect(outlookText('en', flat).body).toContain('about the same (heavy) through the day');
    expect(outlookText('en', flat).body).not.toContain('best time');
    expect(outlookText('ar', flat).body).toContain('طوال اليوم');
  });

  it('without learned traffic there is no outlook', () => {
    expect(outlookText('ar', { ...facts, known: false, worst: null, best: null }).body).toContain('لا توجد توقعات');
  });
});
