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
  /**
   * Set only on requests the server makes to itself (the developer sandbox): run
   * as this API key. No network request can carry it.
   */
  readonly actAsKeyId?: string;
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

/**
 * One request/response pair. A class rather than closures and object literals:
 * it is allocated for every request, and a stable shape keeps that cheap.
 */
class UwsExchange implements IncomingRequest {
  readonly method: string;
  readonly url: string;
  readonly query: string;
  readonly headers: Record<string, string> = {};
  readonly params: string[] = [];
  readonly remoteAddress: string;
  body: Promise<Buffer> = EMPTY_BODY;
  aborted = false;
  private finished = false;
  /** Most handlers never look at the signal, so the controller is made on first use. */
  private abortController: AbortController | undefined;

  constructor(
    readonly res: HttpResponse,
    req: HttpRequest,
    paramCount: number,
    private readonly tracker: InFlightTracker,
  ) {
    const headers = this.headers;
    req.forEach((name, value) => {
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    });
    for (let index = 0; index < paramCount; index++) this.params.push(req.getParameter(index) ?? '');
    this.method = req.getMethod().toUpperCase();
    this.url = req.getUrl();
    this.query = req.getQuery() ?? '';
    this.remoteAddress = Buffer.from(res.getRemoteAddressAsText()).toString();
  }

  get signal(): AbortSignal {
    if (!this.abortController) {
      this.abortController = new AbortController();
      if (this.aborted) this.abortController.abort();
    }
    return this.abortController.signal;
  }

  abort(): void {
    this.aborted = true;
    this.abortController?.abort();
    this.finish();
  }

  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.tracker.end();
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
    const exchange = new UwsExchange(res, req, paramCount, tracker);
    res.onAborted(() => exchange.abort());
    if (body.read) {
      exchange.body = readBody(res, exchange.headers['content-length'], body.limitBytes);
      // The pipeline may answer before reading the body (an early 401, say); keep a rejection from going unhandled.
      exchange.body.catch(() => undefined);
    }
    process(exchange).then(
      (response) => writeResponse(exchange, response, tracker.draining),
      () => {
        // The pipeline maps every error to a response; reaching here is a bug, answered rather than left hanging.
        writeResponse(exchange, { status: 500, headers: {}, body: '' }, true);
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

function writeResponse(exchange: UwsExchange, response: OutgoingResponse, draining: boolean): void {
  if (exchange.aborted) return;
  const res = exchange.res;
  const body = response.body;
  const closeConnection = Boolean(response.closeConnection) || draining;
  res.cork(() => {
    res.writeStatus(`${response.status} ${STATUS_CODES[response.status] ?? ''}`);
    for (const name in response.headers) res.writeHeader(name, response.headers[name]!);
    // Small bodies (strings are handed to uWS as they are: no Buffer copy) go out with one `end`.
    if (body === undefined || closeConnection || body.length <= SMALL_BODY_BYTES / 4) {
      res.end(body, closeConnection);
      exchange.finish();
      return;
    }
    streamWithBackpressure(exchange, typeof body === 'string' ? Buffer.from(body) : body);
  });
}

/** Bodies up to this size go out with one `end`; larger ones respect socket backpressure. */
const SMALL_BODY_BYTES = 64 * 1024;

function streamWithBackpressure(exchange: UwsExchange, body: Buffer): void {
  const res = exchange.res;
  const total = body.length;
  const startOffset = res.getWriteOffset();
  const [, done] = res.tryEnd(body, total);
  if (done) {
    exchange.finish();
    return;
  }
  // The socket is full: resume from where it stopped each time it drains.
  res.onWritable((offset) => {
    if (exchange.aborted) return true;
    const [ok, finished] = res.tryEnd(body.subarray(offset - startOffset), total);
    if (finished) exchange.finish();
    return ok;
  });
}
