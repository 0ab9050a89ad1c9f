/**
 * Pass-through to a Valhalla-compatible server (ROUTING_ENGINE_URL): the
 * payload goes to the engine's action unchanged and its answer comes back in
 * the envelope. An unreachable engine (`reason: "unreachable"`, or `"timeout"`
 * past EXTERNAL_TIMEOUT_MS), or one that answers an error (`"engine_error"`
 * with its `status`), is the spec's `available: false` envelope (201), never a
 * 5xx. The URL is operator configuration, never taken from a request.
 */
import type { Logger } from '../../shared/logger.js';
import { availableEnvelope, unavailableEnvelope, type EngineEnvelope } from './engine-envelope.js';

/** How long the external engine gets per call. */
const EXTERNAL_TIMEOUT_MS = 15_000;

/** Our endpoint paths and the Valhalla actions they map to. */
export const ENGINE_ACTIONS: Record<string, string> = {
  '/routing/route': 'route',
  '/routing/matrix': 'sources_to_targets',
  '/routing/isochrone': 'isochrone',
  '/routing/map-match': 'trace_attributes',
  '/routing/optimize': 'optimized_route',
  '/routing/route-attributes': 'trace_attributes',
};

export class ExternalEngine {
  constructor(
    private readonly baseUrl: string,
    private readonly logger: Logger,
  ) {}

  async call(path: string, payload: unknown, signal?: AbortSignal): Promise<EngineEnvelope> {
    const action = ENGINE_ACTIONS[path] ?? path.split('/').pop()!;
    const url = new URL(action, this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    const timeout = AbortSignal.timeout(EXTERNAL_TIMEOUT_MS);
    let response: Response | undefined;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        redirect: 'error',
      });
      const data: unknown = await response.json();
      if (!response.ok) return unavailableEnvelope(path, payload, 'engine_error', { status: response.status, ...(isObject(data) ? { error: data } : {}) });
      return availableEnvelope(path, data);
    } catch (error) {
      this.logger.warn({ path, engine: url.origin, err: (error as Error).message }, 'external routing engine unreachable');
      // an answer that is not JSON is the engine's error; no answer at all, its being out of reach
      const reason = timeout.aborted ? 'timeout' : response ? 'engine_error' : 'unreachable';
      return unavailableEnvelope(path, payload, reason, response ? { status: response.status } : {});
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
