/**
 * The fuzz test's HTTP client: node:http over a keep-alive agent, so the request target, headers and body bytes
 * go out exactly as generated (fetch would normalise the URL and refuse some headers), with a deadline per
 * request: no answer in time is a hang.
 */
import http from 'node:http';
import { RawJson } from './hostile-values.js';

export interface RawRequest {
  method: string;
  /** The request target as sent: path and query, already percent-encoded where it should be. */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  ms: number;
}

export class NoAnswer extends Error {
  constructor(
    readonly kind: 'timeout' | 'connection',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Time this process's own event loop stood still (drawing inputs, say): an answer that arrived meanwhile waits
 * unread, so a deadline must not count it against the server.
 */
let stalledMs = 0;
let lastTick = performance.now();
setInterval(() => {
  const now = performance.now();
  if (now - lastTick > 150) stalledMs += now - lastTick - 100;
  lastTick = now;
}, 100).unref();

/** Sends one request; rejects with NoAnswer when the server does not answer within `timeoutMs` (of this process's own stalls not counted). */
export function send(agent: http.Agent, port: number, request: RawRequest, timeoutMs: number): Promise<RawResponse> {
  const started = performance.now();
  const stalledAtStart = stalledMs;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...request.headers };
    if (request.body) headers['content-length'] = String(request.body.length);
    const outgoing = http.request({ host: '127.0.0.1', port, method: request.method, path: request.target, headers, agent });
    let timer: NodeJS.Timeout;
    const arm = (ms: number) => {
      timer = setTimeout(() => {
        const stalled = stalledMs - stalledAtStart;
        const waited = performance.now() - started - stalled;
        if (waited < timeoutMs) return arm(Math.max(timeoutMs - waited, 100));
        outgoing.destroy(new NoAnswer('timeout', `no answer within ${timeoutMs} ms${stalled > 1_000 ? ` (the client itself stalled ${Math.round(stalled)} ms besides)` : ''}`));
      }, ms);
    };
    arm(timeoutMs);
    outgoing.once('error', (error) => {
      clearTimeout(timer);
      reject(error instanceof NoAnswer ? error : new NoAnswer('connection', `${(error as NodeJS.ErrnoException).code ?? ''} ${error.message}`.trim()));
    });
    outgoing.once('response', (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.once('error', (error) => {
        clearTimeout(timer);
        reject(new NoAnswer('connection', `while reading the answer: ${error.message}`));
      });
      incoming.once('end', () => {
        clearTimeout(timer);
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks), ms: performance.now() - started });
      });
    });
    outgoing.end(request.body);
  });
}

/**
 * Past this a body is cut off where it stands: the server refuses anything over 1 MiB (413) before parsing, and
 * a drawn array of 20 000 items each holding thousands more (the schemas allow it) would not fit in memory.
 */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

class BodyFull extends Error {}

interface Written {
  parts: Buffer[];
  bytes: number;
  limit: number;
}

/** JSON text of a generated value; RawJson leaves are written as they are (tokens JSON.stringify cannot write). */
export function jsonBytes(value: unknown, limit = MAX_BODY_BYTES): Buffer {
  const out = { parts: [] as Buffer[], bytes: 0, limit };
  try {
    write(value, out);
  } catch (error) {
    if (!(error instanceof BodyFull)) throw error;
  }
  return Buffer.concat(out.parts);
}

function push(out: Written, part: string | Buffer): void {
  const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
  out.parts.push(bytes);
  out.bytes += bytes.length;
  if (out.bytes > out.limit) throw new BodyFull();
}

function write(value: unknown, out: Written): void {
  if (value instanceof RawJson) {
    push(out, value.text);
    return;
  }
  if (Array.isArray(value)) {
    push(out, '[');
    value.forEach((item, index) => {
      if (index) push(out, ',');
      write(item === undefined ? null : item, out);
    });
    push(out, ']');
    return;
  }
  if (value !== null && typeof value === 'object') {
    push(out, '{');
    let first = true;
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      if (!first) push(out, ',');
      first = false;
      push(out, `${JSON.stringify(key)}:`);
      write(item, out);
    }
    push(out, '}');
    return;
  }
  // JSON.stringify writes lone surrogates as \udXXX escapes: the body then carries them as the JSON text says
  push(out, JSON.stringify(value) ?? 'null');
}
