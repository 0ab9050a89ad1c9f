import { z } from 'zod';
import { ApiError } from '../../shared/errors.js';
import type { ReadinessReport } from '../../services/operations/readiness.js';
import type { HttpMetrics } from '../metrics.js';
import { defineRoute, HttpReply, type RouteDefinition } from '../route.js';

export interface OperationsDeps {
  readiness(): Promise<ReadinessReport>;
  /** Which backend implementation each dependency uses (embedded or real). */
  backends: Record<string, string>;
  /** Optional providers and whether each is configured (push: web, android, ios); not configured is not a failure. */
  providers?: Record<string, string>;
  version: string;
}

const dependencyStatus = z.object({ ok: z.boolean(), latencyMs: z.number(), error: z.string().optional() });

/** Liveness and readiness: unauthenticated, at the root, outside /api/v1. */
export function operationsRoutes(deps: OperationsDeps): RouteDefinition[] {
  const startedAtMs = Date.now();
  return [
    defineRoute({
      method: 'GET',
      path: '/health',
      mount: 'root',
      summary: 'Liveness: the process is up and its event loop answers',
      tags: ['operations'],
      response: z.object({ status: z.literal('ok'), version: z.string(), uptimeSeconds: z.number() }),
      handler: () => ({
        status: 'ok' as const,
        version: deps.version,
        uptimeSeconds: Math.round((Date.now() - startedAtMs) / 1000),
      }),
    }),
    defineRoute({
      method: 'GET',
      path: '/ready',
      mount: 'root',
      summary: 'Readiness: SQL, counters, bus and solver workers answer',
      description:
        'Answers 503 `NOT_READY` naming the failed dependencies in `message` and `details.failed`. `providers` says which optional providers are configured (`push-web`, `push-android`, `push-ios`: `configured` or `not configured`; an unconfigured one is never attempted and does not make the process unready).',
      tags: ['operations'],
      errors: ['NOT_READY'],
      response: z.object({
        status: z.literal('ready'),
        backends: z.record(z.string(), z.string()),
        providers: z.record(z.string(), z.string()),
        checks: z.record(z.string(), dependencyStatus),
      }),
      handler: async () => {
        const report = await deps.readiness();
        if (!report.ready) {
          throw new ApiError('NOT_READY', {
            message: `Not ready: ${report.failed.join(', ')} unavailable`,
            details: { failed: report.failed, checks: report.checks, backends: deps.backends },
          });
        }
        return { status: 'ready' as const, backends: deps.backends, providers: deps.providers ?? {}, checks: report.checks };
      },
    }),
  ];
}

/**
 * Prometheus metrics, served only by the listener on METRICS_PORT (never on the API port): the counters name every
 * route and status, the process's memory and CPU, which no API caller needs to read.
 */
export function metricsRoutes(metrics: HttpMetrics): RouteDefinition[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/metrics',
      mount: 'root',
      summary: 'Prometheus metrics: request counts and latency histograms per route and status',
      tags: ['operations'],
      responseContentType: 'text/plain',
      handler: async () => {
        const { contentType, text } = await metrics.render();
        return HttpReply.content(text, contentType);
      },
    }),
  ];
}
