import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { STATUS_CODES } from 'node:http';
import { ApiError } from '../shared/errors.js';

/**
 * The only module that touches uWebSockets' request and response objects.
 * uWS hands out `req` for the synchronous part of the handler only and frees
 * `res` when the client disconnects, so everything needed is copied out at
 * once, `onAborted` is registered before any await, and writes are corked.
 */

/** Everything the pipeline needs, copied out of uWS synchronously. */
export interface IncomingRequest {
  method: string;
  /** Path without the query string. */
  url: string;
  /** Raw query string without `?`. */
  query: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** Path parameter values in pattern order. */
  params: string[];
  remoteAddress: string;
  /** The whole body; rejects with 413 when it exceeds the limit. */
  body: Promise<Buffer>;
  /** Aborted when the client disconnects before the answer (created on first use). */
  readonly signal: AbortSignal;
}

export interface OutgoingResponse {
  status: number;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Close the connection after this answer (e.g. an unread oversize body). */
  closeConnection?: boolean;
}

export type RequestProcessor = (incoming: IncomingRequest) => Promise<OutgoingResponse>;

export interface BodyPolicy {
  read: boolean;
  limitBytes: number;
}

const EMPTY_BODY = Promise.resolve(Buffer.alloc(0));

/** Counts requests in flight so shutdown can wait for them. */
export class InFlightTracker {
  private count = 0;
  private waiters: Array<() => void> = [];
  /** Set when shutting down: answers then ask the client to close the connection. */
  draining = false;

  get size(): number {
    return this.count;
  }

  begin(): void {
    this.count++;
  }

  end(): void {
    this.count--;
    if (this.count === 0) {
      for (const wake of this.waiters.splice(0)) wake();
    }
  }

  /** Resolves when nothing is in flight. */
  idle(): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

/** Builds the uWS handler that feeds one route's processor. */
export function uwsHandler(
  paramCount: number,
  body: BodyPolicy,
  process: RequestProcessor,
  tracker: InFlightTracker,
): (res: HttpResponse, req: HttpRequest) => void {
  return (res, req) => {
    tracker.begin();
    // Most handlers never look at the signal; an AbortController per request is measurable, so make it lazily.
    let abort: AbortController | undefined;
    const state = { aborted: false, finished: false };
    const finish = () => {
      if (state.finished) return;
      state.finished = true;
      tracker.end();
    };
    res.onAborted(() => {
      state.aborted = true;
      abort?.abort();
      finish();
    });

    const headers: Record<string, string> = {};
    req.forEach((name, value) => {
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    });
    const params: string[] = [];
    for (let index = 0; index < paramCount; index++) params.push(req.getParameter(index) ?? '');
    const incoming: IncomingRequest = {
      method: req.getMethod().toUpperCase(),
      url: req.getUrl(),
      query: req.getQuery() ?? '',
      headers,
      params,
      remoteAddress: Buffer.from(res.getRemoteAddressAsText()).toString(),
      body: body.read ? readBody(res, headers['content-length'], body.limitBytes) : EMPTY_BODY,
      get signal() {
        if (!abort) {
          abort = new AbortController();
          if (state.aborted) abort.abort();
        }
        return abort.signal;
      },
    };
    // The pipeline may answer before reading the body (an early 401, say); keep a rejection from going unhandled.
    if (body.read) incoming.body.catch(() => undefined);

    process(incoming).then(
      (response) => writeResponse(res, state, response, tracker.draining, finish),
      () => {
        // The pipeline maps every error to a response; reaching here is a bug, answered rather than left hanging.
        writeResponse(res, state, { status: 500, headers: {}, body: '' }, true, finish);
      },
    );
  };
}

function tooLarge(limitBytes: number): ApiError {
  return new ApiError('PAYLOAD_TOO_LARGE', {
    message: `Request body exceeds the limit of ${limitBytes} bytes`,
    details: { limitBytes },
  });
}

function readBody(res: HttpResponse, contentLength: string | undefined, limitBytes: number): Promise<Buffer> {
  const declared = contentLength === undefined ? undefined : Number(contentLength);
  if (declared !== undefined && Number.isFinite(declared) && declared > limitBytes) {
    // Refuse before reading a byte; the answer closes the connection.
    return Promise.reject(tooLarge(limitBytes));
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let refused = false;
    res.onData((chunk, isLast) => {
      if (refused) return;
      received += chunk.byteLength;
      if (received > limitBytes) {
        refused = true;
        reject(tooLarge(limitBytes));
        return;
      }
      // uWS reuses the chunk's memory after this callback returns: copy it.
      chunks.push(Buffer.from(new Uint8Array(chunk).slice()));
      if (isLast) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
    });
  });
}

function writeResponse(
  res: HttpResponse,
  state: { aborted: boolean },
  response: OutgoingResponse,
  draining: boolean,
  finish: () => void,
): void {
  if (state.aborted) return;
  const body = response.body;
  const closeConnection = Boolean(response.closeConnection) || draining;
  res.cork(() => {
    res.writeStatus(`${response.status} ${STATUS_CODES[response.status] ?? ''}`);
    for (const name in response.headers) res.writeHeader(name, response.headers[name]!);
    // Small bodies (strings are handed to uWS as they are: no Buffer copy) go out with one `end`.
    if (body === undefined || closeConnection || body.length <= SMALL_BODY_BYTES / 4) {
      res.end(body, closeConnection);
      finish();
      return;
    }
    streamWithBackpressure(res, state, typeof body === 'string' ? Buffer.from(body) : body, finish);
  });
}

/** Bodies up to this size go out with one `end`; larger ones respect socket backpressure. */
const SMALL_BODY_BYTES = 64 * 1024;

function streamWithBackpressure(res: HttpResponse, state: { aborted: boolean }, body: Buffer, finish: () => void): void {
  const total = body.length;
  const startOffset = res.getWriteOffset();
  const [, done] = res.tryEnd(body, total);
  if (done) {
    finish();
    return;
  }
  // The socket is full: resume from where it stopped each time it drains.
  res.onWritable((offset) => {
    if (state.aborted) return true;
    const [ok, finished] = res.tryEnd(body.subarray(offset - startOffset), total);
    if (finished) finish();
    return ok;
  });
}
