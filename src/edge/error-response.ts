import { ApiError, statusName, unavailableDependencyError } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';

/** The error body of spec part 1 §7. */
export interface ErrorBody {
  statusCode: number;
  message: string | string[];
  error: string;
  code: string;
  details?: Record<string, unknown>;
  requestId: string;
}

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

/**
 * The single mapping from anything thrown to the error body. A backend that
 * cannot be reached is a 503 with Retry-After (`unavailableDependencyError`).
 * Unexpected exceptions become a 500 that names only the request id; the stack
 * goes to the log, never to the client.
 */
export function toErrorResponse(error: unknown, requestId: string, log: Logger): ErrorResponse {
  const outage = unavailableDependencyError(error);
  if (outage) {
    // an outage, not a bug: no stack; the statement says what was cut off
    log.warn({ err: (error as Error).message, statement: (error as { statement?: unknown }).statement, requestId }, 'database unavailable');
    error = outage;
  }
  if (error instanceof ApiError) {
    const body: ErrorBody = {
      statusCode: error.statusCode,
      message: error.messages,
      error: statusName(error.statusCode),
      code: error.code,
      requestId,
    };
    if (error.details) body.details = error.details;
    return { status: error.statusCode, body, headers: error.headers ?? {} };
  }
  log.error({ err: error, requestId }, 'unhandled error');
  return {
    status: 500,
    body: {
      statusCode: 500,
      message: 'Internal server error',
      error: statusName(500),
      code: 'INTERNAL_ERROR',
      requestId,
    },
    headers: {},
  };
}
