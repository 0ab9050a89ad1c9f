import { writeSync } from 'node:fs';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.js';
import { FdWriter } from './fd-writer.js';
import { redactHeaders, redactUrl } from './log-redaction.js';

export type { Logger };

/**
 * Log lines are written in batches of about this size under load: each write is a thread-pool round trip (a thread
 * wake-up, on a busy 2-core machine often a context switch), so fewer and larger writes cost the event loop less
 * (4 KiB → 32 KiB: 53.4 against 56.6 µs of server CPU per cached autocomplete, best of three alternating runs)...
 */
const LOG_BATCH_CHARS = 32_768;
/** ...and at least this often when traffic is light, so a line never waits long. */
const LOG_FLUSH_INTERVAL_MS = 200;

/**
 * Gathers lines and hands them to the writer a batch at a time, joined once (sonic-boom's own batching appended each
 * line to a growing string and measured its UTF-8 length on every line: ~8 KB of garbage per 200-byte request line).
 */
export class LineBatcher implements DestinationStream {
  private lines: string[] = [];
  private chars = 0;

  constructor(
    private readonly writer: FdWriter,
    private readonly batchChars = LOG_BATCH_CHARS,
  ) {}

  write(line: string): boolean {
    if (this.writer.failed) return true;
    this.lines.push(line);
    this.chars += line.length;
    if (this.chars >= this.batchChars) this.release();
    return true;
  }

  /** Hands the waiting lines on and calls back once they are written (pino's `logger.flush(cb)` lands here). */
  flush(callback?: (error?: Error) => void): void {
    this.release();
    this.writer.flush(callback ?? (() => undefined));
  }

  /** Writes everything still waiting, synchronously: the process is ending and no callback will run. */
  flushSync(): void {
    const batch = this.takeBatch();
    this.writer.flushSync(batch);
  }

  /** Hands the waiting lines to the writer as one text (without waiting for it to write them). */
  release(): void {
    const batch = this.takeBatch();
    if (batch) this.writer.write(batch);
  }

  private takeBatch(): string | undefined {
    if (this.lines.length === 0) return undefined;
    const batch = this.lines.length === 1 ? this.lines[0]! : this.lines.join('');
    this.lines = [];
    this.chars = 0;
    return batch;
  }
}

/**
 * One JSON logger for the process. Writes are asynchronous (FdWriter) so that the per-request log line
 * never blocks the event loop.
 */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>): Logger {
  const writer = new FdWriter(1, outputFailed);
  const batcher = new LineBatcher(writer);
  let droppedSaid = 0;
  let droppedSaidAt = 0;
  setInterval(() => {
    batcher.release();
    // a reader that stopped reading: the writer drops what does not fit its queue; say so, at most every 10 s
    if (writer.dropped > droppedSaid && Date.now() - droppedSaidAt >= 10_000) {
      notice(`log output is not keeping up: ${writer.dropped - droppedSaid} log batches dropped`);
      droppedSaid = writer.dropped;
      droppedSaidAt = Date.now();
    }
  }, LOG_FLUSH_INTERVAL_MS).unref();
  // an uncaught error, process.exit() or the loop running dry: the last lines are the ones worth having
  process.once('exit', () => batcher.flushSync());
  return pino(
    {
      level: config.LOG_LEVEL,
      base: { pid: process.pid },
      // Epoch-ms timestamps and no path-based redaction pass: the request log line is on the hot path. Serializers
      // run only for the keys a line has: every `url` and `headers` logged anywhere is masked (log-redaction.ts).
      serializers: {
        err: pino.stdSerializers.err,
        url: (url: unknown) => (typeof url === 'string' ? redactUrl(url) : url),
        headers: (headers: unknown) => (headers !== null && typeof headers === 'object' ? redactHeaders(headers as Record<string, unknown>) : headers),
      },
    },
    batcher,
  );
}

/**
 * The log output failed: logging ends (the writer drops everything from now on). A reader gone (EPIPE: a closed pipe,
 * a log shipper that exited) is said once on stderr and the server goes on serving, as pino's own destination does.
 * Any other error (a full disk, a bad descriptor) ends the process as an uncaught
 * error, and it can end: nothing waits on the failed output.
 */
function outputFailed(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EPIPE') throw error;
  notice('log output closed (EPIPE): logging stopped');
}

/** A warning about the log output itself, on stderr (the log output is what is in trouble). */
function notice(msg: string): void {
  try {
    writeSync(2, `${JSON.stringify({ level: 40, time: Date.now(), pid: process.pid, msg })}\n`);
  } catch {
    // stderr is gone too: nothing to tell
  }
}

const PINO_DEFAULT_FORMATTERS = (pino({}, { write: () => undefined }) as unknown as Record<symbol, { level?: unknown }>)[pino.symbols.formattersSym]!;

/** Writes one `info` line made of ready JSON members (each `,"key":value`), with the logger's time and bindings. */
export type InfoLineWriter = (members: string, msg: string) => void;

/**
 * A writer of `info` lines that skips pino's generic serialization (a third of the request log line's cost: a
 * key walk, a serializer lookup and a string check per key) for callers that build the members themselves, as the
 * request pipeline does for its one line per request. The line is byte for byte what `logger.info(fields, msg)`
 * writes (same level, time, bindings and order; strings through JSON.stringify); callers still apply the logger's
 * serializers (`serializerOf`). Undefined when the logger does anything this cannot repeat (a mixin, hooks, a
 * message prefix or key of its own, formatters, a multistream): then log through pino.
 */
export function infoLineWriter(logger: Logger): InfoLineWriter | undefined {
  const symbols = pino.symbols;
  const internals = logger as unknown as Record<symbol, unknown>;
  const stream = internals[symbols.streamSym] as (DestinationStream & Record<symbol, unknown>) | undefined;
  const formatters = internals[symbols.formattersSym] as { level?: unknown; log?: unknown } | undefined;
  if (
    !stream ||
    internals[symbols.mixinSym] ||
    internals[(symbols as unknown as Record<string, symbol>).msgPrefixSym!] ||
    internals[symbols.messageKeySym] !== 'msg' ||
    internals[symbols.nestedKeySym] ||
    stream[symbols.needsMetadataGsym] ||
    (internals[symbols.hooksSym] as { logMethod?: unknown; streamWrite?: unknown } | undefined)?.logMethod ||
    (internals[symbols.hooksSym] as { streamWrite?: unknown } | undefined)?.streamWrite ||
    // pino shares its default formatters between loggers: any other is the logger's own
    formatters?.level !== PINO_DEFAULT_FORMATTERS.level ||
    formatters?.log !== undefined ||
    logger.levels.values.info !== 30
  ) {
    return undefined;
  }
  const configuredTime = internals[symbols.timeSym] as () => string;
  const time = configuredTime === pino.stdTimeFunctions.epochTime ? epochTimeMember() : configuredTime;
  // callers log the same message line after line: its JSON and the line's end are made once per message
  let lastMsg: string | undefined;
  let end = '';
  return (members, msg) => {
    // read per line: a child logger's bindings (chindings) are fixed, but setBindings may change them
    const bindings = internals[symbols.chindingsSym] as string;
    if (msg !== lastMsg) {
      lastMsg = msg;
      end = `,"msg":${JSON.stringify(msg)}}\n`;
    }
    stream.write(`{"level":30${time()}${bindings}${members}${end}`);
  };
}

/**
 * pino's default `,"time":<epoch ms>` member, made once per millisecond: an epoch in milliseconds is no small
 * integer, so each line paid a number-to-text conversion (in a busy second, most lines share their millisecond).
 */
function epochTimeMember(): () => string {
  let madeAtMs = NaN;
  let member = '';
  return () => {
    const nowMs = Date.now();
    if (nowMs !== madeAtMs) {
      madeAtMs = nowMs;
      member = `,"time":${nowMs}`;
    }
    return member;
  };
}

/** The logger's serializer for `key` (e.g. `url`, which masks secrets), or undefined. */
export function serializerOf(logger: Logger, key: string): ((value: unknown) => unknown) | undefined {
  const serializers = (logger as unknown as Record<symbol, Record<string, (value: unknown) => unknown> | undefined>)[pino.symbols.serializersSym];
  return serializers?.[key];
}
