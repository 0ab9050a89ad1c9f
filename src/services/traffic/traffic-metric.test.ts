import { describe, expect, it } from 'vitest';
import type { ProfileRow } from '../../domain/traffic.js';
import { instantOf, trustworthyProfile } from './traffic-metric.js';

const row = (profileType: ProfileRow['profileType'], dow: number, hour: number, sampleCount: number, ratio: number): ProfileRow => ({
  segmentKey: 'w1:2-3',
  profileType,
  dow,
  hour,
  country: 'EG',
  lat: 30,
  lng: 31,
  freeFlowKph: 50,
  sampleCount,
  simulatedCount: 0,
  speedSum: 50 * ratio * sampleCount,
  speedSqSum: 0,
  ratioSum: ratio * sampleCount,
});

describe('instantOf', () => {
  it('reads a local date-time in the country’s own clock, summer time and half-hour offsets included', () => {
    expect(instantOf('EG', '2026-07-01T08:00')).toBe(Date.parse('2026-07-01T05:00:00Z'));
    expect(instantOf('EG', '2026-01-10T08:00')).toBe(Date.parse('2026-01-10T06:00:00Z'));
    expect(instantOf('JO', '2026-01-10T08:00')).toBe(Date.parse('2026-01-10T05:00:00Z'));
    expect(instantOf('IR', '2026-01-10T08:00')).toBe(Date.parse('2026-01-10T04:30:00Z'));
    expect(instantOf('TR', '2026-01-10T23:30:15')).toBe(Date.parse('2026-01-10T20:30:15Z'));
  });

  it('takes a value with Z or an offset as the instant it names', () => {
    expect(instantOf('EG', '2026-07-01T08:00:00Z')).toBe(Date.parse('2026-07-01T08:00:00Z'));
    expect(instantOf('JO', '2026-07-01T08:00+02:00')).toBe(Date.parse('2026-07-01T06:00:00Z'));
  });
});

describe('trustworthyProfile', () => {
  const clock = { dow: 2, hour: 8, date: '2026-11-24' };
  const flags = { isHoliday: true, isWeekend: false, isRamadan: false };

  it('falls back past a profile with too few samples to the next trustworthy one', () => {
    const resolved = trustworthyProfile([row('holiday', -1, 8, 2, 0.9), row('typical', 2, 8, 6, 0.3)], clock, flags);
    expect(resolved).toMatchObject({ profileType: 'typical', simulated: false });
    expect(resolved!.ratio).toBeCloseTo(0.3, 9);
  });

  it('takes the most specific trustworthy type, pools weekdays when the day has too few, and ignores other hours', () => {
    expect(trustworthyProfile([row('holiday', -1, 8, 5, 0.9), row('typical', 2, 8, 6, 0.3)], clock, flags)).toMatchObject({ profileType: 'holiday' });
    const pooled = trustworthyProfile([row('typical', 2, 8, 2, 0.4), row('typical', 3, 8, 3, 0.6), row('typical', 2, 9, 50, 0.1)], clock, { ...flags, isHoliday: false });
    expect(pooled!.ratio).toBeCloseTo((0.4 * 2 + 0.6 * 3) / 5, 9);
    expect(trustworthyProfile([row('typical', 2, 8, 4, 0.4)], clock, { ...flags, isHoliday: false })).toBeUndefined();
  });
});
