/** Request schemas of the vector tile endpoints (spec part 2 §4.7). */
import { z } from 'zod';

const tileNumber = (name: string) =>
  z
    .string()
    .regex(/^\d{1,8}$/, `${name} must be a whole number`)
    .transform(Number);

/** `{z}/{x}/{y}` with `.pbf` optional on `{y}`; ranges are checked against the zoom by the service. */
export const vectorTileParams = z.object({
  z: tileNumber('z'),
  x: tileNumber('x'),
  y: z
    .string()
    .regex(/^\d{1,8}(\.pbf)?$/, 'y must be a whole number, optionally followed by .pbf')
    .transform((value) => Number(value.replace(/\.pbf$/, ''))),
});

/** `v` is the version token of the tile template; `api_key`/`apiKey` are read by the access gate. */
export const vectorTileQuery = z.object({
  v: z.string().max(64).optional(),
  api_key: z.string().max(512).optional(),
  apiKey: z.string().max(512).optional(),
});
