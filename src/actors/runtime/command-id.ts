/**
 * Ids for actor commands. An id is unique across processes, so a command retried over the bus
 * keeps its id and the actor answers it from memory instead of applying it twice; it is opaque
 * (32 hex digits), never shown to clients.
 *
 * Why not `randomUUID()`: Node builds a UUID by concatenating 20 pieces, so each one is a tree of
 * cons strings. A navigation session keeps its last commands' ids and compares every new command's
 * against them: one such tree per fix was promoted to the old generation (≈0.6 KB), and each
 * comparison walked two trees through cold memory (`ConsString::Get` under `SlowEquals`, ~5 % of the
 * server's CPU at 2 000 sessions). These ids are flat strings, encoded in one native call from
 * random bytes drawn 256 ids at a time.
 */
import { randomFillSync } from 'node:crypto';

const ID_BYTES = 16;
const IDS_PER_DRAW = 256;
const pool = Buffer.allocUnsafeSlow(ID_BYTES * IDS_PER_DRAW);
let nextId = IDS_PER_DRAW;

export function newCommandId(): string {
  if (nextId === IDS_PER_DRAW) {
    randomFillSync(pool);
    nextId = 0;
  }
  const start = ID_BYTES * nextId++;
  return pool.toString('hex', start, start + ID_BYTES);
}
