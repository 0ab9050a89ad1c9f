import { pino, type Logger } from 'pino';
import type { Config } from './config.js';

export type { Logger };

/**
 * One JSON logger for the process. Writes go through an asynchronous
 * destination so that the per-request log line never blocks the event loop.
 */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>): Logger {
  return pino(
    {
      level: config.LOG_LEVEL,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['password', '*.password', 'headers.authorization', 'headers["x-api-key"]'], censor: '[redacted]' },
    },
    pino.destination({ sync: false }),
  );
}
