import { ApiError, statusName } from '../shared/errors.js';
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
 * The single mapping from anything thrown to the error body. Unexpected
 * exceptions become a 500 that names only the request id; the stack goes to the
 * log, never to the client.
 */
export function toErrorResponse(error: unknown, requestId: string, log: Logger): ErrorResponse {
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
