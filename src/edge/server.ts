import uWS, { type TemplatedApp, type us_listen_socket } from 'uWebSockets.js';
import type { Logger } from '../shared/logger.js';
import { preflightHeaders } from './cors.js';
import { InFlightTracker, uwsHandler, type RequestProcessor } from './http.js';
import type { HttpMetrics } from './metrics.js';
import { createRouteProcessor, type RequestGuard } from './request-pipeline.js';
import { RequestIds } from './request-ids.js';
import type { EndpointTable } from '../services/access/endpoint-table.js';
import { effectiveBodyKind, mountedPath, type BoundRoute, type RouteDefinition } from './route.js';
import { bindRoute } from './route-binding.js';
import type { WebSocketEndpoint } from './ws/websocket-endpoint.js';

export interface EdgeServerOptions {
  host: string;
  port: number;
  /** Share the port with other processes (SO_REUSEPORT); otherwise a port already taken is an error. */
  reusePort?: boolean;
  /** Default body limit; routes may override. */
  bodyLimitBytes: number;
  logger: Logger;
  metrics: HttpMetrics;
  guards?: readonly RequestGuard[];
  /** Each route's access, scopes, throttle and billing: a route without a row here is refused. */
  endpoints: EndpointTable;
  routes: readonly RouteDefinition[];
  webSockets?: readonly WebSocketEndpoint[];
}

/**
 * uSockets' listen options: LIBUS_LISTEN_DEFAULT (SO_REUSEPORT on a named port) and LIBUS_LISTEN_EXCLUSIVE_PORT.
 * At run time the package exports only the second as `uWS.LIBUS_LISTEN_EXCLUSIVE_PORT`, and its typings declare
 * both in an enum the module does not export, so they are restated here.
 */
const LISTEN_SHARED = 0;
const LISTEN_EXCLUSIVE = 1;

type UwsMethod = 'get' | 'post' | 'put' | 'patch' | 'del';
const UWS_METHOD: Record<RouteDefinition['method'], UwsMethod> = {
  GET: 'get',
  POST: 'post',
  PUT: 'put',
  PATCH: 'patch',
  DELETE: 'del',
};

/** `/places/{slug}` → uWS pattern `/places/:slug` and the parameter names in order. */
export function toUwsPattern(path: string): { pattern: string; paramNames: string[] } {
  const paramNames: string[] = [];
  const pattern = path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    paramNames.push(name);
    return `:${name}`;
  });
  return { pattern, paramNames };
}

/** The uWebSockets.js app serving every route table, plus CORS preflight and the 404 fallback. */
export class EdgeServer {
  private readonly app: TemplatedApp;
  private readonly tracker = new InFlightTracker();
  private listenSocket: us_listen_socket | undefined;
  /** Every HTTP route served, each bound to its row of the endpoint table. */
  readonly routes: readonly BoundRoute[];
  /** Every WebSocket served, by its route entry bound to its row. */
  readonly webSocketRoutes: readonly BoundRoute[];

  constructor(private readonly options: EdgeServerOptions) {
    // Bound before anything is made: a route without a row stops the start, naming it.
    this.webSocketRoutes = (options.webSockets ?? []).map((endpoint) => bindRoute(endpoint.route, options.endpoints));
    this.routes = options.routes.map((route) => bindRoute(route, options.endpoints));
    this.app = uWS.App();
    const deps = { logger: options.logger, metrics: options.metrics, guards: options.guards ?? [], requestIds: new RequestIds() };
    const seen = new Set<string>();
    for (const endpoint of options.webSockets ?? []) {
      const { pattern } = toUwsPattern(mountedPath(endpoint.route));
      seen.add(`GET ${pattern.replace(/:[^/]+/g, ':')}`);
      this.app.ws(pattern, endpoint.behavior);
    }
    for (const route of this.routes) {
      const fullPath = mountedPath(route);
      const { pattern, paramNames } = toUwsPattern(fullPath);
      const identity = `${route.method} ${pattern.replace(/:[^/]+/g, ':')}`;
      if (seen.has(identity)) throw new Error(`Route registered twice: ${route.method} ${fullPath}`);
      seen.add(identity);
      const processor = createRouteProcessor({ label: fullPath, route, paramNames }, deps);
      const bodyPolicy = {
        read: effectiveBodyKind(route) !== 'none',
        limitBytes: route.bodyLimitBytes ?? options.bodyLimitBytes,
      };
      this.app[UWS_METHOD[route.method]](pattern, uwsHandler(paramNames.length, bodyPolicy, processor, this.tracker));
    }
    const preflight: RequestProcessor = async (incoming) => ({
      status: 204,
      headers: preflightHeaders(incoming.headers.origin),
    });
    // A preflight over the head limits (414, 431) or with ambiguous framing is refused like any request: with the
    // error body, a request id and a log line, not a bare status.
    preflight.refuse = createRouteProcessor({ label: 'preflight', route: undefined, paramNames: [] }, deps).refuse;
    this.app.options('/*', uwsHandler(0, { read: false, limitBytes: 0 }, preflight, this.tracker));
    const notFound = createRouteProcessor({ label: 'unmatched', route: undefined, paramNames: [] }, deps);
    // Read (and bound) any body of an unknown route too, so the connection stays usable for the next request.
    this.app.any('/*', uwsHandler(0, { read: true, limitBytes: options.bodyLimitBytes }, notFound, this.tracker));
  }

  /** Starts listening; resolves with the bound port (useful with PORT=0). */
  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      // uWS binds with SO_REUSEPORT unless told otherwise: a second server on the same port would start silently
      const mode = this.options.reusePort ? LISTEN_SHARED : LISTEN_EXCLUSIVE;
      // the native listen takes (host, port, options, callback); the published typings miss that overload
      const listen = this.app.listen as unknown as (host: string, port: number, options: number, callback: (socket: us_listen_socket | false) => void) => void;
      listen.call(this.app, this.options.host, this.options.port, mode, (socket) => {
        if (!socket) {
          reject(new Error(`Cannot listen on ${this.options.host}:${this.options.port} (in use by another process? several processes may share a port only with REUSE_PORT=true)`));
          return;
        }
        this.listenSocket = socket;
        resolve(uWS.us_socket_local_port(socket));
      });
    });
  }

  get inFlight(): number {
    return this.tracker.size;
  }

  /**
   * Stops accepting connections, lets in-flight requests finish (answers now
   * close their connection) for at most `graceMs`, then closes every socket.
   */
  async shutdown(graceMs: number): Promise<{ timedOut: boolean }> {
    if (this.listenSocket) {
      uWS.us_listen_socket_close(this.listenSocket);
      this.listenSocket = undefined;
    }
    this.tracker.draining = true;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      this.tracker.idle().then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs))),
    ]);
    clearTimeout(timer);
    // `close` exists at run time (uWS ≥ 20.2x) but is missing from this build's typings.
    (this.app as TemplatedApp & { close(): void }).close();
    return { timedOut };
  }
}
