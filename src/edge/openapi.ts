import { z } from 'zod';
import { errorCodes, statusName, type ErrorCode } from '../shared/errors.js';
import { effectiveBodyKind, mountedPath, successStatusOf, type AccessClass, type BoundRoute } from './route.js';

type JsonSchema = Record<string, unknown>;

export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
}

/** Errors every route can answer with. */
const IMPLIED_ERRORS: ErrorCode[] = ['VALIDATION_ERROR', 'INTERNAL_ERROR'];
/** Errors added by the route's access class. */
const ACCESS_ERRORS: Record<AccessClass, ErrorCode[]> = {
  open: [],
  'key-or-bearer': ['UNAUTHENTICATED', 'FORBIDDEN', 'KEY_WEBSITE_NOT_ALLOWED', 'KEY_IP_NOT_ALLOWED', 'QUOTA_EXCEEDED', 'RATE_LIMITED'],
  bearer: ['UNAUTHENTICATED'],
  admin: ['UNAUTHENTICATED', 'FORBIDDEN'],
};

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** Query and path schemas become one OpenAPI parameter per property. */
function parametersOf(schema: z.ZodType | undefined, location: 'query' | 'path'): JsonSchema[] {
  if (!schema) return [];
  const json = toSchema(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    schema: property,
  }));
}

function errorResponses(route: BoundRoute): Record<string, JsonSchema> {
  const { access, scopes } = route.endpoint;
  const codes = new Set<ErrorCode>([...IMPLIED_ERRORS, ...ACCESS_ERRORS[access], ...(route.errors ?? [])]);
  if (route.mount !== 'root') {
    // The access gate: every API route meets the throttle, and a presented key is checked everywhere.
    // ... and every API route may need the database (a key, a session, the route's own data): 503 while it is away.
    for (const code of ['RATE_LIMITED', 'UNAUTHENTICATED', 'FORBIDDEN', 'DATABASE_UNAVAILABLE'] as const) codes.add(code);
    if (scopes.length) for (const code of ['KEY_WEBSITE_NOT_ALLOWED', 'KEY_IP_NOT_ALLOWED', 'QUOTA_EXCEEDED'] as const) codes.add(code);
  }
  if (effectiveBodyKind(route) !== 'none') {
    codes.add('PAYLOAD_TOO_LARGE');
    codes.add('UNSUPPORTED_MEDIA_TYPE');
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = errorCodes[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, JsonSchema> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `${statusName(status)}: ${list.join(', ')}`,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return responses;
}

function operationOf(route: BoundRoute): JsonSchema {
  const { access, scopes } = route.endpoint;
  const operation: JsonSchema = {
    summary: route.summary,
    tags: route.tags,
    operationId: `${route.method.toLowerCase()}${mountedPath(route).replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    'x-access': access,
  };
  if (route.description) operation.description = route.description;
  if (scopes.length) operation['x-scopes'] = scopes;
  const parameters = [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')];
  if (parameters.length) operation.parameters = parameters;
  const bodyKind = effectiveBodyKind(route);
  if (route.body && bodyKind !== 'none') {
    const mediaType = bodyKind === 'multipart' ? 'multipart/form-data' : 'application/json';
    operation.requestBody = { required: true, content: { [mediaType]: { schema: toSchema(route.body, 'input') } } };
  }
  if (access !== 'open') {
    operation.security =
      access === 'key-or-bearer' ? [{ apiKey: [] }, { apiKeyQuery: [] }, { bearer: [] }] : [{ bearer: [] }];
  }
  const success = String(successStatusOf(route));
  const content = route.responseContentType
    ? { [route.responseContentType]: { schema: { type: 'string' } } }
    : { 'application/json': { schema: route.response ? toSchema(route.response, 'output') : {} } };
  // a redirect (the browser legs of social sign-in) has no body: the Location header is the answer
  const successResponse =
    Number(success) >= 300 && Number(success) < 400
      ? { description: 'Redirect', headers: { Location: { schema: { type: 'string' } } } }
      : { description: 'Success', content };
  operation.responses = { [success]: successResponse, ...errorResponses(route) };
  return operation;
}

/** The OpenAPI 3.1 document, generated from the served routes and their rows: every route appears by construction. */
export function buildOpenApiDocument(routes: readonly BoundRoute[], info: OpenApiInfo): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    if (route.hidden) continue;
    const path = mountedPath(route);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: { ...info, license: { name: 'Map data © OpenStreetMap contributors, ODbL 1.0', url: 'https://www.openstreetmap.org/copyright' } },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['statusCode', 'message', 'error', 'requestId'],
          properties: {
            statusCode: { type: 'integer' },
            message: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
            error: { type: 'string', description: 'HTTP status name' },
            code: { type: 'string', enum: Object.keys(errorCodes) },
            details: { type: 'object' },
            requestId: { type: 'string' },
          },
        },
      },
    },
  };
}
