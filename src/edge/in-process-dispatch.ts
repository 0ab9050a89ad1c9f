import type { IncomingRequest, OutgoingResponse, RequestProcessor } from './http.js';
import { createRouteProcessor, type PipelineDeps } from './request-pipeline.js';
import { mountedPath, type BoundRoute } from './route.js';
import { toUwsPattern } from './server.js';

export interface InProcessRequest {
  method: 'GET' | 'POST';
  /** Path relative to /api/v1, with an optional query string. */
  path: string;
  body?: unknown;
  headers: Record<string, string>;
  remoteAddress: string;
  /** The API key the request runs as. */
  actAsKeyId: string;
}

interface CompiledRoute {
  route: BoundRoute;
  segments: string[];
  processor: RequestProcessor;
}

const NEVER_ABORTED = new AbortController().signal;

/**
 * Runs a request through the very pipeline network requests take (gate,
 * validation, handler, error mapper) without a socket: the developer sandbox.
 */
export class InProcessDispatcher {
  private readonly compiled: CompiledRoute[];

  /** `routes`: the routes the edge serves, already bound to their rows (EdgeServer.routes). */
  constructor(routes: readonly BoundRoute[], deps: PipelineDeps) {
    this.compiled = routes
      .filter((route) => route.mount !== 'root')
      .map((route) => {
        const label = mountedPath(route);
        // Same parameter names, same pipeline and same metrics label as the network route.
        const { paramNames } = toUwsPattern(label);
        return { route, segments: route.path.split('/').filter(Boolean), processor: createRouteProcessor({ label, route, paramNames }, deps) };
      });
  }

  /** The route a method and path would reach, with its parameter values; static segments win over parameters. */
  match(method: string, path: string): { route: BoundRoute; params: string[]; processor: RequestProcessor } | undefined {
    const parts = path.split('/').filter(Boolean);
    let best: { candidate: CompiledRoute; params: string[]; staticCount: number } | undefined;
    for (const candidate of this.compiled) {
      if (candidate.route.method !== method || candidate.segments.length !== parts.length) continue;
      const params: string[] = [];
      let staticCount = 0;
      const fits = candidate.segments.every((segment, index) => {
        if (segment.startsWith('{')) {
          params.push(parts[index]!);
          return true;
        }
        staticCount++;
        return segment === parts[index];
      });
      if (fits && (!best || staticCount > best.staticCount)) best = { candidate, params, staticCount };
    }
    return best && { route: best.candidate.route, params: best.params, processor: best.candidate.processor };
  }

  async dispatch(request: InProcessRequest): Promise<OutgoingResponse | undefined> {
    const [path = '/', query = ''] = request.path.split('?', 2);
    const target = this.match(request.method, path);
    if (!target) return undefined;
    const body = request.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(request.body));
    const incoming: IncomingRequest = {
      method: request.method,
      url: `/api/v1${path}`,
      query,
      headers: { ...request.headers, ...(request.body === undefined ? {} : { 'content-type': 'application/json' }) },
      params: target.params,
      remoteAddress: request.remoteAddress,
      body: Promise.resolve(body),
      signal: NEVER_ABORTED,
      actAsKeyId: request.actAsKeyId,
    };
    return target.processor(incoming);
  }
}
