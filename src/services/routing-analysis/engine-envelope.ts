/**
 * The envelope of the routing engine passthroughs (spec part 3 §4.1):
 * `{ provider: "svc", available: true, path, data }` on success and
 * `{ provider: "svc", available: false, path, request }` when the engine
 * cannot answer (no map data loaded). Local to routing analysis until the
 * routing family's shared helper lands.
 */
export type EngineEnvelope<T> =
  | { provider: 'svc'; available: true; path: string; data: T }
  | { provider: 'svc'; available: false; path: string; request: unknown };

export function engineAnswer<T>(path: string, data: T): EngineEnvelope<T> {
  return { provider: 'svc', available: true, path, data };
}

export function engineUnavailable(path: string, request: unknown): EngineEnvelope<never> {
  return { provider: 'svc', available: false, path, request };
}
