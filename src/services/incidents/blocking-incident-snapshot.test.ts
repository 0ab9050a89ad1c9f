import { describe, expect, it } from 'vitest';
import type { IncidentRecord } from '../../store/pg/incidents.js';
import { BlockingIncidentSnapshot, type BlockingIncidentSource } from './blocking-incident-snapshot.js';

const T0 = Date.parse('2026-11-29T12:00:00Z');
const NASR_CITY = { west: 31.3, south: 30.04, east: 31.36, north: 30.09 };

function incident(id: string, lat: number, lng: number, expiresAt: string | null = null, clearedAt: string | null = null): IncidentRecord {
  const at = new Date(T0 - 60_000).toISOString();
  return { id, incidentType: 'closure', lat, lng, description: '', reportedAt: at, lastConfirmedAt: at, expiresAt, clearedAt, supports: 1, clears: 0 };
}

/** A store of live blocking incidents that counts its queries; `release` lets a held query answer. */
function fakeSource(initial: IncidentRecord[]) {
  const state = { records: [...initial], wholeQueries: 0, boxQueries: 0, hold: undefined as Promise<void> | undefined };
  const live = (at: Date) => state.records.filter((record) => record.clearedAt === null && (record.expiresAt === null || Date.parse(record.expiresAt) > at.getTime()));
  const source: BlockingIncidentSource = {
    async liveBlocking(at, limit) {
      state.wholeQueries++;
      const answer = live(at).slice(0, limit);
      await state.hold;
      return answer;
    },
    async liveBlockingIn(box, at, limit) {
      state.boxQueries++;
      return live(at).filter((record) => record.lat >= box.south && record.lat <= box.north && record.lng >= box.west && record.lng <= box.east).slice(0, limit);
    },
  };
  return { state, source };
}

function clocks() {
  const time = { wall: T0, monotonic: 1_000 };
  return { time, now: () => time.wall, monotonic: () => time.monotonic };
}

/** A copy (1 s old at most) over a fake store holding `records`, with clocks the test moves. */
function snapshotOver(records: IncidentRecord[]) {
  const { state, source } = fakeSource(records);
  const { time, now, monotonic } = clocks();
  return { state, source, time, snapshot: new BlockingIncidentSnapshot(source, now, 1_000, monotonic) };
}

/** Holds the store's answers until the returned function is called (each read has looked at the store by then). */
function holdReads(state: ReturnType<typeof fakeSource>['state']): () => void {
  let release!: () => void;
  state.hold = new Promise((resolve) => (release = resolve));
  return () => {
    release();
    state.hold = undefined;
  };
}

describe('BlockingIncidentSnapshot', () => {
  it('answers the incidents inside the box from one query for many looks within its age', async () => {
    const { state, time, snapshot } = snapshotOver([incident('in', 30.06, 31.33), incident('outside', 30.2, 31.5)]);
    const looks = await Promise.all(Array.from({ length: 50 }, () => snapshot.within(NASR_CITY, 10)));
    for (const found of looks) expect(found.map((record) => record.id)).toEqual(['in']);
    time.monotonic += 999;
    expect((await snapshot.within(NASR_CITY, 10)).map((record) => record.id)).toEqual(['in']);
    expect(state.wholeQueries).toBe(1);
    // older than its age: read again, and a new incident from another process appears
    state.records.push(incident('new', 30.05, 31.31));
    time.monotonic += 2;
    expect((await snapshot.within(NASR_CITY, 10)).map((record) => record.id)).toEqual(['in', 'new']);
    expect(state.wholeQueries).toBe(2);
    expect(state.boxQueries).toBe(0);
  });

  it('drops an incident whose expiry passed since the copy was taken, by the service clock', async () => {
    const { time, snapshot } = snapshotOver([incident('accident', 30.06, 31.33, new Date(T0 + 500).toISOString())]);
    expect(await snapshot.within(NASR_CITY, 10)).toHaveLength(1);
    time.wall += 500;
    expect(await snapshot.within(NASR_CITY, 10)).toEqual([]);
  });

  it('reads the store again at the next look after a change made in this process', async () => {
    const { state, snapshot } = snapshotOver([incident('closure', 30.06, 31.33)]);
    expect(await snapshot.within(NASR_CITY, 10)).toHaveLength(1);
    state.records[0] = { ...state.records[0]!, clearedAt: new Date(T0).toISOString() };
    snapshot.invalidate();
    expect(await snapshot.within(NASR_CITY, 10)).toEqual([]);
    expect(state.wholeQueries).toBe(2);
  });

  it('does not keep a copy whose query ran across a change', async () => {
    const { state, snapshot } = snapshotOver([incident('closure', 30.06, 31.33)]);
    const release = holdReads(state);
    const during = snapshot.within(NASR_CITY, 10);
    // the query has read the store; the incident is cleared here before it answers
    await Promise.resolve();
    state.records[0] = { ...state.records[0]!, clearedAt: new Date(T0).toISOString() };
    snapshot.invalidate();
    release();
    await during;
    expect(await snapshot.within(NASR_CITY, 10)).toEqual([]);
    expect(state.wholeQueries).toBe(2);
  });

  it('starts a new query for a look that begins after a change while an older query runs', async () => {
    const { state, snapshot } = snapshotOver([incident('old', 30.06, 31.33)]);
    const release = holdReads(state);
    const before = snapshot.within(NASR_CITY, 10);
    await Promise.resolve();
    // a closure reported in this process while that query runs: the next look must see it
    state.records.push(incident('reported', 30.07, 31.34));
    snapshot.invalidate();
    const after = snapshot.within(NASR_CITY, 10);
    release();
    expect((await before).map((record) => record.id)).toEqual(['old']);
    expect((await after).map((record) => record.id)).toEqual(['old', 'reported']);
    // the copy kept is the later one
    expect((await snapshot.within(NASR_CITY, 10)).map((record) => record.id)).toEqual(['old', 'reported']);
    expect(state.wholeQueries).toBe(2);
  });

  it('reads again at the next look after a failed read', async () => {
    const { state, source } = fakeSource([incident('closure', 30.06, 31.33)]);
    const { now, monotonic } = clocks();
    let failures = 1;
    const flaky: BlockingIncidentSource = {
      liveBlocking: (at, limit) => (failures-- > 0 ? Promise.reject(new Error('connection reset')) : source.liveBlocking(at, limit)),
      liveBlockingIn: source.liveBlockingIn,
    };
    const snapshot = new BlockingIncidentSnapshot(flaky, now, 1_000, monotonic);
    await expect(snapshot.within(NASR_CITY, 10)).rejects.toThrow('connection reset');
    expect((await snapshot.within(NASR_CITY, 10)).map((record) => record.id)).toEqual(['closure']);
    expect(state.wholeQueries).toBe(1);
  });

  it('asks the store per box when the live incidents outnumber the copy, and reads the whole only now and then', async () => {
    const many = Array.from({ length: 2_001 }, (_, index) => incident(`far-${index}`, 24 + index * 1e-4, 46));
    const { state, time, snapshot } = snapshotOver([...many, incident('here', 30.06, 31.33)]);
    expect((await snapshot.within(NASR_CITY, 10)).map((record) => record.id)).toEqual(['here']);
    time.monotonic += 5_000;
    expect((await snapshot.within(NASR_CITY, 10)).map((record) => record.id)).toEqual(['here']);
    expect(state.boxQueries).toBe(2);
    expect(state.wholeQueries).toBe(1);
    // fewer again: after the recheck period the copy serves the looks once more
    state.records.splice(0, 2_000);
    time.monotonic += 30_001;
    expect((await snapshot.within(NASR_CITY, 10)).map((record) => record.id)).toEqual(['here']);
    expect(state.wholeQueries).toBe(2);
    expect(state.boxQueries).toBe(2);
  });

  it('answers at most `limit`', async () => {
    const { snapshot } = snapshotOver(Array.from({ length: 5 }, (_, index) => incident(`c${index}`, 30.06, 31.33 + index * 1e-3)));
    expect((await snapshot.within(NASR_CITY, 3)).map((record) => record.id)).toEqual(['c0', 'c1', 'c2']);
  });
});
