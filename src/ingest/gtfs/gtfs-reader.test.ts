import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { GtfsTable } from '../../domain/transit.js';
import { silentProgress } from '../progress.js';
import { gtfsSeconds, readGtfsFeed } from './gtfs-reader.js';

const FEED = new URL('../../../../shared/data/gtfs/cairo-metro', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'gtfs-reader-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function read(path: string) {
  const counts: Partial<Record<GtfsTable, number>> = {};
  const report = await readGtfsFeed(path, async (table, rows) => void (counts[table] = (counts[table] ?? 0) + rows.length), silentProgress);
  return { counts, report };
}

/** A zip with the files stored (no compression): enough for the reader, no dependency. */
function storedZip(files: Array<{ name: string; data: Buffer }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of files) {
    const nameBytes = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

describe('readGtfsFeed', () => {
  it('reads every table of the Cairo metro folder', async () => {
    const { counts } = await read(FEED);
    expect(counts).toEqual({ agency: 1, stops: 189, routes: 3, trips: 6, stopTimes: 128, frequencies: 6, calendar: 1, calendarDates: 1, shapes: 510 });
  });

  it('reads the same feed from a zip', async () => {
    const zip = join(scratch, 'cairo.zip');
    const files = readdirSync(FEED).filter((name) => name.endsWith('.txt'));
    writeFileSync(zip, storedZip(files.map((name) => ({ name: `cairo-metro/${name}`, data: readFileSync(join(FEED, name)) }))));
    expect((await read(zip)).counts).toMatchObject({ stops: 189, stopTimes: 128, shapes: 510 });
  });

  it('names file and line of a malformed row', async () => {
    const broken = join(scratch, 'broken');
    cpSync(FEED, broken, { recursive: true });
    const lines = readFileSync(join(broken, 'stop_times.txt'), 'utf8').split('\n');
    lines[4] = lines[4]!.replace(/,6:07:05,/, ',6:7:5,');
    writeFileSync(join(broken, 'stop_times.txt'), lines.join('\n'));
    await expect(read(broken)).rejects.toThrow(/stop_times\.txt line 5: arrival_time "6:7:5" is not H:MM:SS/);
    const stops = readFileSync(join(FEED, 'stops.txt'), 'utf8').split('\n');
    stops[2] = stops[2]!.replace('29.862604', 'north');
    writeFileSync(join(broken, 'stops.txt'), stops.join('\n'));
    await expect(read(broken)).rejects.toThrow(/stops\.txt line 3: stop_lat "north"/);
  });

  it('refuses a feed without stops or a missing path', async () => {
    const empty = join(scratch, 'empty');
    cpSync(FEED, empty, { recursive: true });
    rmSync(join(empty, 'stops.txt'));
    await expect(read(empty)).rejects.toThrow(/has no stops\.txt/);
    await expect(read(join(scratch, 'nowhere'))).rejects.toThrow(/no such GTFS/);
  });

  it('parses GTFS times past midnight', () => {
    expect(gtfsSeconds('24:30:00')).toBe(88_200);
    expect(gtfsSeconds('6:00:15')).toBe(21_615);
    expect(() => gtfsSeconds('6:60:00')).toThrow();
  });
});
