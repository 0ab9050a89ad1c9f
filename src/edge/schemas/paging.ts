import { z } from 'zod';

/** `limit` (1–200, default 50) and `offset` (≥ 0, default 0) query parameters, as the inbox defines them. */
export const pagingQuery = {
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
};
