/**
 * Typed client of the Location Platform API: `api` is openapi-fetch over the types generated from the
 * server's OpenAPI document (src/schema.ts), with the API key or bearer token added to every request and
 * the quota headers reported; `navigationStream` and `fleetStream` are the hand-written WebSocket clients.
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { FleetStream, type FleetStreamOptions } from './fleet-stream.js';
import { NavigationStream, type NavigationStreamOptions } from './navigation-stream.js';
import type { paths } from './schema.js';
import type { Credentials } from './stream-socket.js';

export type { paths, components, operations } from './schema.js';
export * from './frames.js';
export { NavigationStream, type NavigationStreamEvents, type NavigationStreamOptions } from './navigation-stream.js';
export { FleetStream, type FleetStreamEvents, type FleetStreamOptions } from './fleet-stream.js';
export { FATAL_CLOSE_CODES, type BackoffOptions, type Credentials, type StreamState, type WebSocketFactory, type WebSocketLike } from './stream-socket.js';

/** The quota headers of the last answer (`x-svc-quota-*`), for a usage display. */
export interface QuotaSnapshot {
  limitMinute: number | null;
  remainingMinute: number | null;
  limitDay: number | null;
  remainingDay: number | null;
  unlimited: boolean;
}

export interface LocationClientOptions {
  /** The server's origin, e.g. `https://maps.example.com` (no `/api/v1`: the paths carry it). */
  baseUrl: string;
  apiKey?: string;
  accessToken?: string;
  fetch?: typeof fetch;
  /** Called with the quota headers of each answer that has them. */
  onQuota?: (quota: QuotaSnapshot) => void;
}

export interface LocationClient {
  /** Every REST endpoint, typed: `client.api.GET('/api/v1/places/{slug}', { params: { path: { slug } } })`. */
  readonly api: Client<paths>;
  /** Changes the credentials used from the next request and stream connection on. */
  setCredentials(credentials: Credentials): void;
  navigationStream(sessionId: string, options?: NavigationStreamOptions): NavigationStream;
  fleetStream(fleetId: string, options?: FleetStreamOptions): FleetStream;
}

function numberHeader(headers: Headers, name: string): number | null {
  const value = headers.get(name);
  return value === null || value === '' ? null : Number(value);
}

export function createLocationClient(options: LocationClientOptions): LocationClient {
  const origin = options.baseUrl.replace(/\/+$/, '');
  let credentials: Credentials = { apiKey: options.apiKey, accessToken: options.accessToken };
  const api = createClient<paths>({ baseUrl: origin, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const auth: Middleware = {
    onRequest({ request }) {
      if (credentials.apiKey && !request.headers.has('x-api-key')) request.headers.set('x-api-key', credentials.apiKey);
      else if (credentials.accessToken && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${credentials.accessToken}`);
      return request;
    },
    onResponse({ response }) {
      const headers = response.headers;
      if (options.onQuota && (headers.has('x-svc-quota-remaining-minute') || headers.has('x-svc-quota-unlimited'))) {
        options.onQuota({
          limitMinute: numberHeader(headers, 'x-svc-quota-limit-minute'),
          remainingMinute: numberHeader(headers, 'x-svc-quota-remaining-minute'),
          limitDay: numberHeader(headers, 'x-svc-quota-limit-day'),
          remainingDay: numberHeader(headers, 'x-svc-quota-remaining-day'),
          unlimited: headers.get('x-svc-quota-unlimited') === 'true',
        });
      }
      return response;
    },
  };
  api.use(auth);
  const wsOrigin = origin.replace(/^http/, 'ws');
  const currentCredentials = () => credentials;
  return {
    api,
    setCredentials(next) {
      credentials = { ...next };
    },
    navigationStream: (sessionId, streamOptions) => new NavigationStream(wsOrigin, sessionId, currentCredentials, streamOptions),
    fleetStream: (fleetId, streamOptions) => new FleetStream(wsOrigin, fleetId, currentCredentials, streamOptions),
  };
}
