import { z } from 'zod';
import { ApiError } from '../../shared/errors.js';
import type { DeveloperPortal } from '../../services/developer/developer-portal.js';
import { principalOf } from '../auth/bearer-guard.js';
import type { InProcessDispatcher } from '../in-process-dispatch.js';
import { defineRoute, type RouteDefinition } from '../route.js';

/** Response headers the sandbox shows: what a developer wants to see of limits and tracing. */
const SHOWN_HEADERS = /^(x-svc-quota-|x-ratelimit-|retry-after$|content-type$|x-request-id$)/;
/** Request headers passed on, so website restrictions can be tried from the portal. */
const FORWARDED_HEADERS = ['origin', 'referer', 'user-agent'];

/**
 * `POST /developer/sandbox` (spec part 1 §4.1): runs a read-only request as one
 * of the caller's keys through the real pipeline, in process. It makes no
 * network request, so no URL it is given can reach anything but this API.
 */
export function developerSandboxRoutes(portal: DeveloperPortal, dispatcher: () => InProcessDispatcher): RouteDefinition[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/developer/sandbox',
      summary: "Try a read-only request as one of your keys; answers the request's status, limit headers and body",
      description: 'GET requests, and POSTs that store nothing; `path` is relative to /api/v1 and may carry a query string.',
      tags: ['developer'],
      errors: ['NOT_FOUND', 'FORBIDDEN'],
      body: z.object({
        apiKeyId: z.uuid(),
        path: z.string().regex(/^\/[^\s#]*$/, { error: 'must be a path relative to /api/v1, starting with /' }).max(2048),
        method: z.enum(['GET', 'POST']).default('GET'),
        body: z.unknown().optional(),
      }),
      handler: async (context) => {
        const principal = principalOf(context);
        portal.assertDeveloper(principal.roles);
        const { apiKeyId, path, method, body } = context.body;
        await portal.getKey(principal.userId, apiKeyId);
        const target = dispatcher().match(method, path.split('?', 1)[0]!);
        if (!target) throw new ApiError('VALIDATION_ERROR', { message: [`path: no ${method} endpoint at ${path.split('?', 1)[0]}`] });
        if (method !== 'GET' && !target.route.readOnly) {
          throw new ApiError('VALIDATION_ERROR', { message: [`path: the sandbox runs read-only requests only; ${method} ${target.route.path} writes`] });
        }
        const headers: Record<string, string> = {};
        for (const name of FORWARDED_HEADERS) if (context.headers[name]) headers[name] = context.headers[name]!;
        const response = (await dispatcher().dispatch({ method, path, body, headers, remoteAddress: context.clientAddress, actAsKeyId: apiKeyId }))!;
        const text = response.body === undefined ? '' : response.body.toString();
        const isJson = (response.headers['content-type'] ?? '').includes('json');
        return {
          request: { method, path, apiKeyId },
          status: response.status,
          headers: Object.fromEntries(Object.entries(response.headers).filter(([name]) => SHOWN_HEADERS.test(name))),
          body: isJson && text ? (JSON.parse(text) as unknown) : text,
        };
      },
    }),
  ];
}
