import { readFileSync } from 'node:fs';

export interface BinPackInstance {
  name: string;
  capacity: number;
  bestKnown: number;
  weights: number[];
}

/** OR-Library bin-packing format: instance count, then per instance a name, "capacity items best-known", and one weight per line. */
export function parseOrLibraryBinPacking(text: string): BinPackInstance[] {
  const tokens = text.split(/\s+/).filter(Boolean);
  let at = 0;
  const next = (): string => {
    const token = tokens[at++];
    if (token === undefined) throw new Error('bin-packing file ends early');
    return token;
  };
  const count = Number(next());
  const instances: BinPackInstance[] = [];
  for (let k = 0; k < count; k++) {
    const name = next();
    const capacity = Number(next());
    const items = Number(next());
    const bestKnown = Number(next());
    const weights = Array.from({ length: items }, () => Number(next()));
    if (![capacity, items, bestKnown, ...weights].every(Number.isFinite)) throw new Error(`${name}: malformed numbers`);
    instances.push({ name, capacity, bestKnown, weights });
  }
  return instances;
}

export function readOrLibraryBinPacking(path: string): BinPackInstance[] {
  return parseOrLibraryBinPacking(readFileSync(path, 'utf8'));
}
