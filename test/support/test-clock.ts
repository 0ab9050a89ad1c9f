/** A server clock tests move forward: the file CLOCK_OFFSET_FILE names holds the milliseconds added to the server's clock. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestClock {
  /** Give this to the server as its environment. */
  env: { CLOCK_OFFSET_FILE: string };
  /** Moves the server's clock forward. */
  advance(ms: number): void;
  remove(): void;
}

export function testClock(): TestClock {
  const dir = mkdtempSync(join(tmpdir(), 'clock-'));
  const file = join(dir, 'offset');
  let offset = 0;
  writeFileSync(file, '0');
  return {
    env: { CLOCK_OFFSET_FILE: file },
    advance(ms) {
      offset += ms;
      writeFileSync(file, String(offset));
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
