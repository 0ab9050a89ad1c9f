/**
 * Streams a GTFS static feed (a .zip or a folder of .txt files) table by table
 * into a sink, in batches, validating every row: a malformed row stops the
 * import with the file and line named (IngestError 'corrupt').
 */
import { createReadStream, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import yauzl from 'yauzl';
import type { GtfsRows, GtfsSink, GtfsTable } from '../../domain/transit.js';
import { IngestError } from '../ingest-error.js';
import type { IngestProgress } from '../progress.js';

const BATCH = 500;

type Fields = Record<string, string | undefined>;

class RowError extends Error {}

const FILES: Array<{ file: string; table: GtfsTable; required: boolean }> = [
  { file: 'agency.txt', table: 'agency', required: true },
  { file: 'stops.txt', table: 'stops', required: true },
  { file: 'routes.txt', table: 'routes', required: true },
  { file: 'trips.txt', table: 'trips', required: true },
  { file: 'stop_times.txt', table: 'stopTimes', required: true },
  { file: 'frequencies.txt', table: 'frequencies', required: false },
  { file: 'calendar.txt', table: 'calendar', required: false },
  { file: 'calendar_dates.txt', table: 'calendarDates', required: false },
  { file: 'shapes.txt', table: 'shapes', required: false },
];

function text(fields: Fields, name: string): string {
  const value = fields[name]?.trim();
  if (!value) throw new RowError(`${name} is required`);
  return value;
}

function optional(fields: Fields, name: string): string | null {
  const value = fields[name]?.trim();
  return value ? value : null;
}

function number(fields: Fields, name: string, min: number, max: number): number {
  const raw = text(fields, name);
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) throw new RowError(`${name} "${raw}" is not a number in ${min}..${max}`);
  return value;
}

function integer(fields: Fields, name: string, min: number, max: number, fallback?: number): number {
  if (fallback !== undefined && !fields[name]?.trim()) return fallback;
  const value = number(fields, name, min, max);
  if (!Number.isInteger(value)) throw new RowError(`${name} "${fields[name]}" is not an integer`);
  return value;
}

/** GTFS time H:MM:SS (hours may pass 24) to seconds. */
export function gtfsSeconds(raw: string, name = 'time'): number {
  const match = /^(\d{1,3}):([0-5]\d):([0-5]\d)$/.exec(raw.trim());
  if (!match) throw new RowError(`${name} "${raw}" is not H:MM:SS`);
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
}

function time(fields: Fields, name: string): number | null {
  const raw = optional(fields, name);
  return raw === null ? null : gtfsSeconds(raw, name);
}

function date(fields: Fields, name: string): number {
  const raw = text(fields, name);
  if (!/^\d{8}$/.test(raw)) throw new RowError(`${name} "${raw}" is not YYYYMMDD`);
  return Number(raw);
}

function color(fields: Fields, name: string): string | null {
  const raw = optional(fields, name);
  if (raw === null) return null;
  if (!/^[0-9a-fA-F]{6}$/.test(raw)) throw new RowError(`${name} "${raw}" is not a six-digit hex colour`);
  return `#${raw.toUpperCase()}`;
}

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

const MAPPERS: { [T in GtfsTable]: (fields: Fields) => GtfsRows[T] } = {
  agency: (f) => ({ agencyId: optional(f, 'agency_id') ?? '', name: text(f, 'agency_name'), url: optional(f, 'agency_url'), timezone: text(f, 'agency_timezone') }),
  stops: (f) => ({
    stopId: text(f, 'stop_id'),
    name: optional(f, 'stop_name') ?? '',
    lat: number(f, 'stop_lat', -90, 90),
    lng: number(f, 'stop_lon', -180, 180),
    locationType: integer(f, 'location_type', 0, 4, 0),
    parentStation: optional(f, 'parent_station'),
  }),
  routes: (f) => ({
    routeId: text(f, 'route_id'),
    agencyId: optional(f, 'agency_id'),
    shortName: optional(f, 'route_short_name'),
    longName: optional(f, 'route_long_name'),
    routeType: integer(f, 'route_type', 0, 1700),
    color: color(f, 'route_color'),
  }),
  trips: (f) => ({ tripId: text(f, 'trip_id'), routeId: text(f, 'route_id'), serviceId: text(f, 'service_id'), shapeId: optional(f, 'shape_id'), headsign: optional(f, 'trip_headsign') ?? optional(f, 'trip_short_name') }),
  stopTimes: (f) => ({
    tripId: text(f, 'trip_id'),
    stopSequence: integer(f, 'stop_sequence', 0, 2 ** 31 - 1),
    stopId: text(f, 'stop_id'),
    arrivalS: time(f, 'arrival_time'),
    departureS: time(f, 'departure_time'),
  }),
  frequencies: (f) => {
    const row = { tripId: text(f, 'trip_id'), startS: gtfsSeconds(text(f, 'start_time'), 'start_time'), endS: gtfsSeconds(text(f, 'end_time'), 'end_time'), headwayS: integer(f, 'headway_secs', 1, 86_400) };
    if (row.endS < row.startS) throw new RowError('end_time is before start_time');
    return row;
  },
  calendar: (f) => ({
    serviceId: text(f, 'service_id'),
    weekdays: WEEKDAYS.reduce((bits, day, index) => bits | (integer(f, day, 0, 1) << index), 0),
    startDate: date(f, 'start_date'),
    endDate: date(f, 'end_date'),
  }),
  calendarDates: (f) => ({ serviceId: text(f, 'service_id'), date: date(f, 'date'), exceptionType: integer(f, 'exception_type', 1, 2) as 1 | 2 }),
  shapes: (f) => ({ shapeId: text(f, 'shape_id'), sequence: integer(f, 'shape_pt_sequence', 0, 2 ** 31 - 1), lat: number(f, 'shape_pt_lat', -90, 90), lng: number(f, 'shape_pt_lon', -180, 180) }),
};

interface FeedSource {
  /** The named file's stream and uncompressed size, or undefined when the feed lacks it. */
  open(file: string): Promise<{ stream: Readable; bytes: number } | undefined>;
  close(): void;
}

function folderSource(path: string): FeedSource {
  return {
    async open(file) {
      const full = join(path, file);
      let bytes: number;
      try {
        bytes = statSync(full).size;
      } catch {
        return undefined;
      }
      return { stream: createReadStream(full), bytes };
    },
    close() {},
  };
}

async function zipSource(path: string): Promise<FeedSource> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, file) => (error || !file ? reject(new IngestError('corrupt', `${path}: not a readable zip (${error?.message})`)) : resolve(file))),
  );
  const entries = new Map<string, yauzl.Entry>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      // feeds are flat; tolerate one enclosing folder
      const name = entry.fileName.split('/').pop()!;
      if (name.endsWith('.txt') && !entries.has(name)) entries.set(name, entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve());
    zip.once('error', reject);
    zip.readEntry();
  });
  return {
    async open(file) {
      const entry = entries.get(file);
      if (!entry) return undefined;
      const stream = await new Promise<Readable>((resolve, reject) => zip.openReadStream(entry, (error, s) => (error || !s ? reject(error) : resolve(s))));
      return { stream, bytes: entry.uncompressedSize };
    },
    close: () => zip.close(),
  };
}

export interface GtfsReadReport {
  rows: Partial<Record<GtfsTable, number>>;
}

/** Reads every table of the feed at `path` into `sink`; throws IngestError naming file and line on a malformed row. */
export async function readGtfsFeed(path: string, sink: GtfsSink, progress: IngestProgress): Promise<GtfsReadReport> {
  let kind: 'zip' | 'folder';
  try {
    kind = statSync(path).isDirectory() ? 'folder' : 'zip';
  } catch {
    throw new IngestError('file_not_found', `${path}: no such GTFS zip or folder`);
  }
  const source = kind === 'folder' ? folderSource(path) : await zipSource(path);
  const report: GtfsReadReport = { rows: {} };
  try {
    for (const { file, table, required } of FILES) {
      const opened = await source.open(file);
      if (!opened) {
        if (required) throw new IngestError('corrupt', `${path}: the feed has no ${file}`);
        continue;
      }
      progress.phase(file, opened.bytes);
      report.rows[table] = await readTable(file, opened.stream, table, sink, progress);
    }
  } finally {
    source.close();
    progress.done();
  }
  if (!report.rows.calendar && !report.rows.calendarDates) throw new IngestError('corrupt', `${path}: the feed has neither calendar.txt nor calendar_dates.txt`);
  return report;
}

async function readTable<T extends GtfsTable>(file: string, stream: Readable, table: T, sink: GtfsSink, progress: IngestProgress): Promise<number> {
  const parser = stream.pipe(parse({ columns: (header: string[]) => header.map((name) => name.trim()), bom: true, skip_empty_lines: true, info: true }));
  let batch: Array<GtfsRows[T]> = [];
  let count = 0;
  let bytes = 0;
  stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
  const map = MAPPERS[table] as (fields: Fields) => GtfsRows[T];
  try {
    for await (const record of parser as AsyncIterable<{ record: Fields; info: { lines: number } }>) {
      try {
        batch.push(map(record.record));
      } catch (error) {
        if (error instanceof RowError) throw new IngestError('corrupt', `${file} line ${record.info.lines}: ${error.message}`);
        throw error;
      }
      count++;
      if (batch.length >= BATCH) {
        await sink(table, batch);
        batch = [];
        progress.update(bytes, count);
      }
    }
  } catch (error) {
    if (error instanceof IngestError) throw error;
    const line = (error as { lines?: number }).lines;
    throw new IngestError('corrupt', `${file}${line ? ` line ${line}` : ''}: ${(error as Error).message}`);
  }
  if (batch.length) await sink(table, batch);
  progress.update(bytes, count);
  return count;
}
