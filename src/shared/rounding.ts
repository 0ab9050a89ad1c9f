/** 10 ** digits for the digit counts answers use, computed once (the same doubles `10 ** digits` gives). */
const FACTORS = Array.from({ length: 10 }, (_, digits) => 10 ** digits);

/** Rounds to a number of decimal places (answers carry metres to 0.1, kilometres to 0.001, degrees to 1e-6). */
export function roundTo(value: number, digits: number): number {
  const factor = FACTORS[digits] ?? 10 ** digits;
  return Math.round(value * factor) / factor;
}
