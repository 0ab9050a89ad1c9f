// first: V8 flags that must be set before other modules allocate
import './gc-tuning.js';
import { ConfigError, loadConfig } from './shared/config.js';
import { createLogger, type Logger } from './shared/logger.js';
import { startApplication } from './application.js';

/** A log reader that has stalled must not keep the process from ending: the last lines get this long (ms). */
const EXIT_FLUSH_WAIT_MS = 2_000;

function exitAfterFlush(logger: Logger, code: number): void {
  process.exitCode = code;
  logger.flush(() => process.exit(code));
  setTimeout(() => process.exit(code), EXIT_FLUSH_WAIT_MS).unref();
}

/** Process entry: the only place that reads process.env and installs signal handlers. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const logger = createLogger(config);
  let app;
  try {
    app = await startApplication(config, logger);
  } catch (error) {
    process.stderr.write(`start-up failed: ${(error as Error).message}\n`);
    logger.fatal({ err: error }, 'start-up failed');
    exitAfterFlush(logger, 1);
    return;
  }
  logger.flush();

  const stop = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    app.stop().then(
      () => {
        logger.info('stopped');
        exitAfterFlush(logger, 0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        exitAfterFlush(logger, 1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

void main();
