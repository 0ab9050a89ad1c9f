/** Rounds to a number of decimal places (answers carry metres to 0.1, kilometres to 0.001, degrees to 1e-6). */
export function roundTo(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
