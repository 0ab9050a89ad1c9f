import { z } from 'zod';
import { ApiError } from '../shared/errors.js';
import type { BodyKind, MultipartForm } from './route.js';
import { parseMultipart } from './multipart.js';

/**
 * The one place where request input is decoded and validated. Handlers only
 * ever see values that passed their route's schemas.
 */

/** Where a value came from: a request's parts, or a client message on a WebSocket stream. */
type Location = 'params' | 'query' | 'body' | 'message';

const TRUTHY = new Set(['true', '1', 'yes', 'on']);
const FALSY = new Set(['false', '0', 'no', 'off']);

/** A query-string boolean: `true|1|yes|on` and `false|0|no|off`, case-insensitive (spec part 1). */
export function queryBoolean() {
  return z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    const lowered = value.trim().toLowerCase();
    if (TRUTHY.has(lowered)) return true;
    if (FALSY.has(lowered)) return false;
    return value;
  }, z.boolean({ error: 'must be one of true, 1, yes, on, false, 0, no, off' }));
}

/** Any UTF-16 surrogate: a query holding one (rare: clients percent-encode) is left to URLSearchParams. */
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Decodes a raw query string as URLSearchParams does; a repeated name becomes an array of its values.
 *
 * Every request decodes its query, and URLSearchParams decodes character by character in JavaScript (a typed
 * Arabic autocomplete query is dozens of percent-escapes). A well-formed query is split here and each part decoded by
 * `decodeURIComponent` (native) after `+` → space, which is what URLSearchParams gives for it; a part that
 * `decodeURIComponent` refuses (a stray `%`, bytes that are not UTF-8, which URLSearchParams keeps or replaces),
 * or text with surrogates (it replaces lone ones), sends the whole query to URLSearchParams. input.test.ts holds
 * the two equal on random queries.
 */
export function parseQueryString(raw: string): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = Object.create(null);
  if (!raw) return result;
  if (SURROGATE.test(raw)) return searchParamsOf(raw, result);
  // URLSearchParams drops one leading `?`
  let start = raw.charCodeAt(0) === 63 ? 1 : 0;
  while (start < raw.length) {
    let end = raw.indexOf('&', start);
    if (end < 0) end = raw.length;
    if (end > start) {
      let equals = raw.indexOf('=', start);
      if (equals < 0 || equals > end) equals = end;
      const name = decodedPart(raw.slice(start, equals));
      const value = equals < end ? decodedPart(raw.slice(equals + 1, end)) : '';
      if (name === undefined || value === undefined) return searchParamsOf(raw, Object.create(null) as Record<string, string | string[]>);
      addParameter(result, name, value);
    }
    start = end + 1;
  }
  return result;
}

/** A name or value as URLSearchParams decodes it, or undefined when only URLSearchParams can say (see above). */
function decodedPart(part: string): string | undefined {
  const spaced = part.includes('+') ? part.replaceAll('+', ' ') : part;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return undefined;
  }
}

function searchParamsOf(raw: string, result: Record<string, string | string[]>): Record<string, string | string[]> {
  for (const [name, value] of new URLSearchParams(raw)) addParameter(result, name, value);
  return result;
}

function addParameter(result: Record<string, string | string[]>, name: string, value: string): void {
  const existing = result[name];
  if (existing === undefined) result[name] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else result[name] = [existing, value];
}

/**
 * Validates `value` against `schema`, turning failures into one 400 VALIDATION_ERROR. Every location of every
 * request, and every stream message, passes here once, so this is also where input no field may hold is refused,
 * schema or not. `check`, when given, is tried before the schema (see RouteDefinition.queryCheck).
 */
export function validate<T>(location: Location, schema: z.ZodType<T> | undefined, value: unknown, check?: (value: never) => T | undefined): T {
  const unfit = unfitInput(value, 1);
  if (unfit) throw validationError(location, [unfit]);
  if (!schema) return value as T;
  // a route's hand-written check (RouteDefinition.queryCheck) answers what it accepts; the schema decides the rest
  const checked = check?.(value as never);
  if (checked !== undefined) return checked;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw validationError(location, result.error.issues);
}

/** Deepest nesting of objects and arrays a request may send (the top-level object is 1). */
export const MAX_INPUT_DEPTH = 64;

/**
 * NUL, which no Postgres text or jsonb value can hold, and unpaired UTF-16 surrogates (from `\ud83d`-style JSON
 * escapes), which have no UTF-8 form: both reached the database and answered 500.
 */
const UNSTORABLE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

interface InputIssue {
  path: PropertyKey[];
  message: string;
  code: string;
}

function textIssue(text: string): InputIssue | undefined {
  if (!UNSTORABLE_TEXT.test(text)) return undefined;
  return text.includes('\u0000')
    ? { path: [], message: 'must not contain NUL (U+0000) characters', code: 'invalid_characters' }
    : { path: [], message: 'must not contain unpaired UTF-16 surrogates', code: 'invalid_characters' };
}

/**
 * The first string (value or name) no field may hold, or the first object nested deeper than MAX_INPUT_DEPTH
 * (deep JSON overflowed the stack wherever it was serialised again). Walks plain objects and arrays only: decoded
 * JSON, query and path values, multipart fields; a file's bytes are not text. The issue's path is built on the way
 * back up, so a clean walk allocates nothing.
 */
function unfitInput(value: unknown, depth: number): InputIssue | undefined {
  if (typeof value === 'string') return textIssue(value);
  if (typeof value !== 'object' || value === null) return undefined;
  const isArray = Array.isArray(value);
  if (!isArray) {
    const prototype = Object.getPrototypeOf(value) as unknown;
    if (prototype !== Object.prototype && prototype !== null) return undefined;
  }
  if (depth > MAX_INPUT_DEPTH) return { path: [], message: `must not be nested deeper than ${MAX_INPUT_DEPTH} levels`, code: 'too_deep' };
  if (isArray) {
    for (let index = 0; index < value.length; index++) {
      const issue = unfitInput(value[index], depth + 1);
      if (issue) {
        issue.path.unshift(index);
        return issue;
      }
    }
    return undefined;
  }
  for (const name in value) {
    const issue = textIssue(name) ?? unfitInput((value as Record<string, unknown>)[name], depth + 1);
    if (issue) {
      issue.path.unshift(name);
      return issue;
    }
  }
  return undefined;
}

function validationError(location: Location, issues: readonly InputIssue[]): ApiError {
  const described = issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    // a body's and a message's fields are named as the client wrote them ("fix.lat"), the others by their part
    const field = location === 'body' || location === 'message' ? path || location : path ? `${location}.${path}` : location;
    return { location, path, field, message: issue.message, code: issue.code };
  });
  return new ApiError('VALIDATION_ERROR', {
    message: described.map((issue) => `${issue.field}: ${issue.message}`),
    details: { issues: described.map(({ location: where, path, message, code }) => ({ location: where, path, message, code })) },
  });
}

function isJsonContentType(contentType: string): boolean {
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  return mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'));
}

/** Turns the raw body into the value the body schema validates. */
export function decodeBody(kind: BodyKind, raw: Buffer, contentType: string | undefined): unknown {
  if (kind === 'none' || raw.length === 0) return kind === 'multipart' ? emptyForm() : undefined;
  if (kind === 'multipart') {
    if (!contentType || !contentType.toLowerCase().startsWith('multipart/form-data')) {
      throw new ApiError('UNSUPPORTED_MEDIA_TYPE', { message: 'Content-Type must be multipart/form-data' });
    }
    return parseMultipart(raw, contentType);
  }
  if (contentType !== undefined && !isJsonContentType(contentType)) {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', { message: 'Content-Type must be application/json' });
  }
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new ApiError('VALIDATION_ERROR', {
      message: [`body: malformed JSON (${(error as Error).message})`],
      details: { reason: 'malformed_json' },
    });
  }
}

function emptyForm(): MultipartForm {
  return { fields: {}, files: [] };
}
