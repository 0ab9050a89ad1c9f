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

/** JSON text of a generated value; RawJson leaves are written as they are (tokens JSON.stringify cannot write). */
export function jsonBytes(value: unknown): Buffer {
  const parts: Array<string | Buffer> = [];
  write(value, parts);
  return Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : part)));
}

function write(value: unknown, parts: Array<string | Buffer>): void {
  if (value instanceof RawJson) {
    parts.push(value.text);
    return;
  }
  if (Array.isArray(value)) {
    parts.push('[');
    value.forEach((item, index) => {
      if (index) parts.push(',');
      write(item === undefined ? null : item, parts);
    });
    parts.push(']');
    return;
  }
  if (value !== null && typeof value === 'object') {
    parts.push('{');
    let first = true;
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      if (!first) parts.push(',');
      first = false;
      parts.push(JSON.stringify(key), ':');
      write(item, parts);
    }
    parts.push('}');
    return;
  }
  // JSON.stringify writes lone surrogates as \udXXX escapes: the body then carries them as the JSON text says
  parts.push(JSON.stringify(value) ?? 'null');
}
