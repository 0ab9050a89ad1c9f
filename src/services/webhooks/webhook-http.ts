import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { PinnedAddress, PinnedWebhookTarget } from './webhook-url-guard.js';

/** The outcome of one POST: a status (redirects are not followed), a failure, or a cancellation by the caller. */
export type WebhookHttpResult =
  | { kind: 'response'; status: number; /** From Retry-After, when present and valid. */ retryAfterMs?: number }
  | { kind: 'failure'; message: string; timedOut: boolean }
  | { kind: 'cancelled' };

export interface WebhookPostOptions {
  /** Budget of the whole attempt (connect, TLS, request, response headers), in ms. */
  timeoutMs: number;
  /** Response bytes read (and discarded) before the connection is cut. */
  maxResponseBytes: number;
  /** Cancels the attempt (dispatcher stop or close). */
  signal?: AbortSignal;
}

/**
 * Connects to the validated address whatever the host name resolves to now:
 * the check and the connection must see the same address, or a DNS answer
 * that flips after the check (rebinding) would reach a private address.
 */
export function pinnedLookup(addresses: readonly PinnedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    // Node 20 asks for all addresses (autoSelectFamily) and tries them in turn; older paths ask for one.
    if (options.all) return callback(null, addresses.map(({ address, family }) => ({ address, family })));
    const chosen = addresses.find((entry) => !options.family || entry.family === options.family) ?? addresses[0]!;
    callback(null, chosen.address, chosen.family);
  };
}

/** Seconds or an HTTP date, as milliseconds from now; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const dateMs = Date.parse(trimmed);
  return Number.isNaN(dateMs) ? undefined : Math.max(0, dateMs - nowMs);
}

function discardBody(response: IncomingMessage, maxBytes: number): void {
  let received = 0;
  response.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > maxBytes) response.destroy();
  });
  response.on('error', () => undefined);
}

/** POSTs `body` to the pinned target once. Never throws; never follows redirects (node's client does not). */
export function postWebhook(target: PinnedWebhookTarget, body: string | Buffer, headers: Record<string, string>, options: WebhookPostOptions): Promise<WebhookHttpResult> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const send = target.url.protocol === 'http:' ? httpRequest : httpsRequest;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: WebhookHttpResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    if (signal.aborted) return settle(options.signal?.aborted ? { kind: 'cancelled' } : { kind: 'failure', message: 'timed out', timedOut: true });
    const request = send(
      {
        hostname: target.hostname,
        port: target.port,
        path: `${target.url.pathname}${target.url.search}`,
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinnedLookup(target.addresses),
        // A fresh connection per attempt: a pooled socket could outlive the address check it was made under.
        agent: false,
        signal,
      },
      (response) => {
        const retryAfter = response.headers['retry-after'];
        const retryAfterMs = parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
        settle({ kind: 'response', status: response.statusCode ?? 0, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
        // The status is the answer; the body is read (bounded) only so the connection can end cleanly.
        discardBody(response, options.maxResponseBytes);
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (options.signal?.aborted) settle({ kind: 'cancelled' });
      else if (timeout.aborted) settle({ kind: 'failure', message: `timed out after ${options.timeoutMs} ms`, timedOut: true });
      else settle({ kind: 'failure', message: (error.code ?? error.message).slice(0, 200), timedOut: false });
    });
    request.end(body);
  });
}
