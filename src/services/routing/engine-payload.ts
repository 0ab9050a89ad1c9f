import { z } from 'zod';

/**
 * Engine endpoints take a Valhalla request. `/routing/route` has it under `payload` (the spec);
 * the other engine endpoints accept it bare or wrapped the same way, so a client can send every
 * engine call in one shape. The unwrap happens here, in the schema, before validation.
 */
export function enginePayload<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    return keys.length === 1 && keys[0] === 'payload' ? record.payload : value;
  }, schema);
}

/** Any non-empty object: what goes through to an external engine unvalidated. */
export const rawEnginePayload = z.record(z.string(), z.unknown()).refine((value) => Object.keys(value).length > 0, 'must be a non-empty engine request');
