import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMinor, invoiceTotals, overageCharge } from './metering.js';
import { MINOR_UNITS, planEntry } from './plan-catalog.js';

describe('overageCharge', () => {
  it('bills nothing within the included requests and pro rata, rounded up once, beyond them', () => {
    expect(overageCharge(0, 100_000, 200)).toEqual({ overageRequests: 0, overageMinor: 0 });
    expect(overageCharge(100_000, 100_000, 200)).toEqual({ overageRequests: 0, overageMinor: 0 });
    // one request over at 0.200 JOD per thousand: 0.2 fils, rounded up to 1 fils
    expect(overageCharge(100_001, 100_000, 200)).toEqual({ overageRequests: 1, overageMinor: 1 });
    // 2 500 over at 200 fils per thousand: exactly 500 fils
    expect(overageCharge(2_002_500, 2_000_000, 200)).toEqual({ overageRequests: 2_500, overageMinor: 500 });
    // 1 234 567 over at 79 halalas per thousand: 97 530.793 → 97 531
    expect(overageCharge(21_234_567, 20_000_000, 79)).toEqual({ overageRequests: 1_234_567, overageMinor: 97_531 });
    // overage 0 means not billed (free): counted, not charged
    expect(overageCharge(150_000, 100_000, 0)).toEqual({ overageRequests: 50_000, overageMinor: 0 });
    // custom plans: no figure
    expect(overageCharge(5, null, null)).toEqual({ overageRequests: null, overageMinor: null });
    expect(() => overageCharge(-1, 0, 1)).toThrow(RangeError);
    expect(() => overageCharge(1.5, 0, 1)).toThrow(RangeError);
    expect(() => overageCharge(Number.MAX_SAFE_INTEGER, 0, 1_000_000)).toThrow(RangeError);
  });

  it('equals the exact rational ceiling for any count and price, past 2^53 products included', () => {
    // up to 10 trillion weighted requests a month at up to 100 000 minor units per thousand: products up to 1e18
    fc.assert(
      fc.property(fc.nat({ max: 1e13 }), fc.nat({ max: 1e12 }), fc.nat({ max: 100_000 }), (weighted, included, perThousand) => {
        const { overageRequests, overageMinor } = overageCharge(weighted, included, perThousand);
        const over = BigInt(Math.max(0, weighted - included));
        expect(BigInt(overageRequests!)).toBe(over);
        const charged = BigInt(overageMinor!);
        // the smallest whole minor amount covering over × price / 1000
        expect(charged * 1000n >= over * BigInt(perThousand)).toBe(true);
        expect((charged - 1n) * 1000n < over * BigInt(perThousand) || charged === 0n).toBe(true);
      }),
    );
  });
});

describe('invoiceTotals', () => {
  it('adds the subscription and the overage of the plan in its currency', () => {
    const starter = planEntry('starter', 'JOD');
    const within = invoiceTotals(starter, starter.includedRequests!);
    expect(within.totalMinor).toBe(starter.monthlyPriceMinor);
    const over = invoiceTotals(starter, starter.includedRequests! + 12_345);
    expect(over.overageRequests).toBe(12_345);
    expect(over.lines[1]!.amountMinor).toBe(Math.ceil((12_345 * starter.overagePerThousandMinor!) / 1000));
    expect(over.totalMinor).toBe(starter.monthlyPriceMinor! + over.lines[1]!.amountMinor!);
    const enterprise = invoiceTotals(planEntry('enterprise', 'AED'), 10);
    expect(enterprise).toMatchObject({ currency: 'AED', totalMinor: null, overageRequests: null, weightedRequests: 10 });
  });
});

describe('formatMinor', () => {
  it('writes thousandths for JOD and hundredths for SAR and AED', () => {
    expect(formatMinor(19_000, MINOR_UNITS.JOD)).toBe('19.000');
    expect(formatMinor(5, MINOR_UNITS.JOD)).toBe('0.005');
    expect(formatMinor(9_900, MINOR_UNITS.SAR)).toBe('99.00');
    expect(formatMinor(7, MINOR_UNITS.AED)).toBe('0.07');
    expect(formatMinor(-150, MINOR_UNITS.AED)).toBe('-1.50');
  });
});
