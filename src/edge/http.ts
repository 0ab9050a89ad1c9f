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

export interface RequestProcessor {
  /** The answer, at once when nothing on the way was asynchronous (then no promise is made for it). */
  (incoming: IncomingRequest): OutgoingResponse | Promise<OutgoingResponse>;
  /**
   * Answers, synchronously and without running the route, a request refused before it: ambiguous framing or an
   * oversize head. Synchronous, because uWS goes on parsing what follows the request in the same read as soon as the
   * handler returns (a smuggled second request, behind two Content-Lengths).
   */
  refuse?(incoming: IncomingRequest, error: ApiError): OutgoingResponse;
}

export interface BodyPolicy {
  read: boolean;
  limitBytes: number;
}

const EMPTY_BODY = Promise.resolve(Buffer.alloc(0));
/** Longest request target (path and query) answered; longer ones get 414 (nginx's and most proxies' default). */
export const MAX_REQUEST_TARGET_BYTES = 8 * 1024;
/** Most header bytes (names and values) answered; more get 431 (Node's own default). */
export const MAX_HEADER_BYTES = 16 * 1024;
/**
 * uWS holds what a request handler writes in a 16 KiB cork buffer until it has parsed the whole read, and a close
 * asked for meanwhile waits for that too: whatever the read held after the refused request would still be parsed
 * and dispatched. A write bigger than the buffer goes out at once, and the close with it, so a refusal that must
 * close at once is padded (with JSON-legal trailing spaces) past it. test/http-framing.int.test.ts holds uWS to it.
 */
const UWS_CORK_BUFFER_BYTES = 16 * 1024;

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
  /** Keyed by names the client chose: no prototype, so a header named `constructor` is just a header. */
  readonly headers: Record<string, string> = Object.create(null) as Record<string, string>;
  readonly params: string[] = [];
  readonly remoteAddress: string;
  body: Promise<Buffer> = EMPTY_BODY;
  aborted = false;
  /** Why the request is answered without running its route: ambiguous framing or an oversize head. */
  readonly refusal: ApiError | undefined;
  private finished = false;
  /** Most handlers never look at the signal, so the controller is made on first use. */
  private abortController: AbortController | undefined;
  private watchingAbort = false;

  constructor(
    readonly res: HttpResponse,
    req: HttpRequest,
    paramCount: number,
    private readonly tracker: InFlightTracker,
  ) {
    const headers = this.headers;
    let headerBytes = 0;
    let contentLengths = 0;
    let transferEncodings = 0;
    req.forEach((name, value) => {
      headerBytes += name.length + value.length;
      if (name === 'content-length') contentLengths++;
      else if (name === 'transfer-encoding') transferEncodings++;
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    });
    for (let index = 0; index < paramCount; index++) this.params.push(req.getParameter(index) ?? '');
    this.method = req.getMethod().toUpperCase();
    this.url = req.getUrl();
    this.query = req.getQuery() ?? '';
    this.remoteAddress = Buffer.from(res.getRemoteAddressAsText()).toString();
    this.refusal = refusalOf(contentLengths, transferEncodings, this.url.length + this.query.length, headerBytes);
  }

  get signal(): AbortSignal {
    if (!this.abortController) {
      this.abortController = new AbortController();
      if (this.aborted) this.abortController.abort();
    }
    return this.abortController.signal;
  }

  /**
   * Asks uWS to say when the client goes away (`onAborted`), once. uWS requires it of every response still open when
   * the handler returns (an answer that waits, a body still to read, a write waiting for the socket to drain); an
   * answer written whole inside the handler needs none, and registering it costs a closure and a V8 global handle.
   */
  watchAbort(): void {
    if (this.watchingAbort) return;
    this.watchingAbort = true;
    this.res.onAborted(() => this.abort());
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

/**
 * A request whose body boundary two parsers could read differently (a front proxy and uWS, which takes the first
 * Content-Length and parses the rest of the body as the next request) is refused, and so is a head over the limits.
 */
function refusalOf(contentLengths: number, transferEncodings: number, targetBytes: number, headerBytes: number): ApiError | undefined {
  if (contentLengths > 1 || transferEncodings > 1 || (contentLengths > 0 && transferEncodings > 0)) {
    const reason = contentLengths > 1 ? 'duplicate_content_length' : transferEncodings > 1 ? 'duplicate_transfer_encoding' : 'content_length_with_transfer_encoding';
    return new ApiError('MALFORMED_REQUEST', {
      message: 'Ambiguous message framing: send one Content-Length, or Transfer-Encoding: chunked alone',
      details: { reason },
    });
  }
  if (targetBytes > MAX_REQUEST_TARGET_BYTES) {
    return new ApiError('URI_TOO_LONG', { message: `The request target exceeds ${MAX_REQUEST_TARGET_BYTES} bytes`, details: { limitBytes: MAX_REQUEST_TARGET_BYTES } });
  }
  if (headerBytes > MAX_HEADER_BYTES) {
    return new ApiError('HEADERS_TOO_LARGE', { message: `The request headers exceed ${MAX_HEADER_BYTES} bytes`, details: { limitBytes: MAX_HEADER_BYTES } });
  }
  return undefined;
}

/** The pipeline maps every error to a response; one escaping it is a bug, answered (and the connection closed) rather than left hanging. */
const BUG_RESPONSE: OutgoingResponse = { status: 500, headers: {}, body: '' };

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
    if (exchange.refusal) {
      writeRefusal(exchange, process.refuse?.(exchange, exchange.refusal) ?? bareRefusal(exchange.refusal));
      return;
    }
    if (body.read) {
      exchange.watchAbort();
      exchange.body = readBody(res, exchange.headers['content-length'], body.limitBytes);
      // The pipeline may answer before reading the body (an early 401, say); keep a rejection from going unhandled.
      exchange.body.catch(() => undefined);
    }
    let answer: OutgoingResponse | Promise<OutgoingResponse>;
    try {
      answer = process(exchange);
    } catch {
      answer = BUG_RESPONSE;
    }
    // an answer made at once is written at once, inside the handler (where uWS has corked the socket)
    if (!(answer instanceof Promise)) {
      writeResponse(exchange, answer, tracker.draining || answer === BUG_RESPONSE, true);
      return;
    }
    exchange.watchAbort();
    answer.then(
      (response) => writeResponse(exchange, response, tracker.draining),
      () => writeResponse(exchange, BUG_RESPONSE, true),
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

/** A processor without a `refuse` (none of the server's own; a test's, say) still answers with the error's status, and closes. */
function bareRefusal(error: ApiError): OutgoingResponse {
  return { status: error.statusCode, headers: {}, closeConnection: true };
}

/** Answers a refused request and closes its connection before uWS parses anything after it (see UWS_CORK_BUFFER_BYTES). */
function writeRefusal(exchange: UwsExchange, response: OutgoingResponse): void {
  const res = exchange.res;
  const body = Buffer.from(response.body ?? '');
  const padded = Buffer.alloc(Math.max(body.length, UWS_CORK_BUFFER_BYTES + 1), ' ');
  body.copy(padded);
  res.cork(() => {
    res.writeStatus(`${response.status} ${STATUS_CODES[response.status] ?? ''}`);
    for (const name in response.headers) res.writeHeader(name, response.headers[name]!);
    res.end(padded, true);
  });
  exchange.finish();
}

/**
 * Writes an answer. `corked`: the caller is inside uWS's request handler, where uWS has corked the socket already
 * (it holds the handler's writes until it has parsed the whole read), so the writes go straight out of this call;
 * an answer that comes later corks its own writes (`res.cork` makes a closure and two native crossings per answer).
 */
function writeResponse(exchange: UwsExchange, response: OutgoingResponse, draining: boolean, corked = false): void {
  if (exchange.aborted) return;
  if (corked) writeCorked(exchange, response, draining);
  else exchange.res.cork(() => writeCorked(exchange, response, draining));
}

function writeCorked(exchange: UwsExchange, response: OutgoingResponse, draining: boolean): void {
  const res = exchange.res;
  const body = response.body;
  const closeConnection = Boolean(response.closeConnection) || draining;
  writeHead(res, response);
  // Small bodies (strings are handed to uWS as they are: no Buffer copy) go out with one `end`.
  if (body === undefined || closeConnection || body.length <= SMALL_BODY_BYTES / 4) {
    res.end(body, closeConnection);
    exchange.finish();
    return;
  }
  streamWithBackpressure(exchange, typeof body === 'string' ? Buffer.from(body) : body);
}

/** `200 OK` and the like, made once per status. */
const statusLines = new Map<number, string>();

function statusLineOf(status: number): string {
  let line = statusLines.get(status);
  if (line === undefined) statusLines.set(status, (line = `${status} ${STATUS_CODES[status] ?? ''}`));
  return line;
}

/**
 * The status line and every header, in two native calls. uWS writes each `writeHeader(name, value)` as
 * `name: value\r\n`, so one call whose value carries the other headers joined with the same separators puts the same
 * bytes on the wire as a call per header, without a JavaScript-to-C++ crossing (and a string conversion) for each.
 */
function writeHead(res: HttpResponse, response: OutgoingResponse): void {
  res.writeStatus(statusLineOf(response.status));
  const headers = response.headers;
  let first: string | undefined;
  let block = '';
  for (const name in headers) {
    if (first === undefined) {
      first = name;
      block = headers[name]!;
    } else block += `\r\n${name}: ${headers[name]!}`;
  }
  if (first !== undefined) res.writeHeader(first, block);
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
  // The socket is full: resume from where it stopped each time it drains (and stop if the client goes away).
  exchange.watchAbort();
  res.onWritable((offset) => {
    if (exchange.aborted) return true;
    const [ok, finished] = res.tryEnd(body.subarray(offset - startOffset), total);
    if (finished) exchange.finish();
    return ok;
  });
}
