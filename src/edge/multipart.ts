import uWS from 'uWebSockets.js';
import { ApiError } from '../shared/errors.js';
import type { MultipartForm } from './route.js';

/** At most this many parts per form, so a crafted body cannot make us allocate without bound. */
export const MAX_MULTIPART_PARTS = 100;

/**
 * Parses a complete multipart/form-data body with uWebSockets' own parser
 * (the body size is already bounded by the route's limit).
 */
export function parseMultipart(raw: Buffer, contentType: string): MultipartForm {
  const exact = raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength) as ArrayBuffer;
  const parts = uWS.getParts(exact, contentType);
  if (!parts) throw new ApiError('VALIDATION_ERROR', { message: ['body: malformed multipart/form-data'] });
  if (parts.length > MAX_MULTIPART_PARTS) {
    throw new ApiError('VALIDATION_ERROR', { message: [`body: at most ${MAX_MULTIPART_PARTS} parts are accepted`] });
  }
  const form: MultipartForm = { fields: Object.create(null), files: [] };
  for (const part of parts) {
    const data = Buffer.from(part.data.slice(0));
    if (part.filename !== undefined) {
      form.files.push({
        field: part.name,
        filename: part.filename,
        contentType: part.type ?? 'application/octet-stream',
        data,
      });
    } else {
      form.fields[part.name] = data.toString('utf8');
    }
  }
  return form;
}
