import { pino, type Logger } from 'pino';
import type { Config } from './config.js';

export type { Logger };

/**
 * One JSON logger for the process. Writes go through an asynchronous
 * destination so that the per-request log line never blocks the event loop.
 */
/** Log lines are written in batches of this size under load... */
const LOG_BATCH_BYTES = 4096;
/** ...and at least this often when traffic is light, so a line never waits long. */
const LOG_FLUSH_INTERVAL_MS = 200;

export function createLogger(config: Pick<Config, 'LOG_LEVEL'>): Logger {
  const destination = pino.destination({ sync: false, minLength: LOG_BATCH_BYTES });
  setInterval(() => {
    if (!(destination as unknown as { destroyed: boolean }).destroyed) destination.flush();
  }, LOG_FLUSH_INTERVAL_MS).unref();
  return pino(
    {
      level: config.LOG_LEVEL,
      base: { pid: process.pid },
      // Epoch-ms timestamps and no redaction pass: the request log line is on the hot path.
      // Secrets never reach the logger (the pipeline masks key-bearing query parameters).
    },
    destination,
  );
}
