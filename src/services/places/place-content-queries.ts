/**
 * Request schemas of the user-content endpoints of places (docs/places.md "User content"): reviews,
 * questions and answers, photos and their moderation. Every text is trimmed and length-capped, every list paged.
 */
import { z } from 'zod';
import { wholeNumber as wholeNumberBetween } from './place-queries.js';

/** A file part of a multipart body, as the edge parses it (edge/multipart.ts). */
export interface UploadedFile {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** Characters a review's text, a question, an answer, a photo caption and a rejection reason may hold. */
export const REVIEW_TEXT_MAX = 2000;
export const QUESTION_TEXT_MAX = 500;
export const ANSWER_TEXT_MAX = 1000;
export const CAPTION_MAX = 300;
export const REJECTION_REASON_MAX = 300;
/** Default and largest page of every user-content list. */
export const DEFAULT_CONTENT_LIMIT = 20;
export const MAX_CONTENT_LIMIT = 50;
/** Deepest row a page may reach (page × limit). */
export const MAX_CONTENT_WINDOW = 10_000;

const single = z.string({ error: 'must be given once' });

const wholeNumber = (min: number, max: number) => wholeNumberBetween(min, max, `must be a whole number from ${min} to ${max}`);

const paging = {
  page: wholeNumber(1, MAX_CONTENT_WINDOW).optional().default(1).describe('1-based page, default 1'),
  limit: wholeNumber(1, MAX_CONTENT_LIMIT).optional().default(DEFAULT_CONTENT_LIMIT).describe(`Items per page, default ${DEFAULT_CONTENT_LIMIT}, at most ${MAX_CONTENT_LIMIT}`),
};

function withinWindow<T extends { page: number; limit: number }>(schema: z.ZodType<T>) {
  return schema.refine((query) => query.page * query.limit <= MAX_CONTENT_WINDOW, { message: `page × limit must be at most ${MAX_CONTENT_WINDOW}`, path: ['page'] });
}

export const contentPageQuery = withinWindow(z.object(paging));
export type ContentPageQuery = z.infer<typeof contentPageQuery>;

export const REVIEW_SORTS = ['newest', 'oldest', 'highest', 'lowest'] as const;
export const reviewsQuery = withinWindow(
  z.object({ ...paging, sort: z.enum(REVIEW_SORTS, { error: `must be one of ${REVIEW_SORTS.join(', ')}` }).optional().default('newest') }),
);
export type ReviewsQuery = z.infer<typeof reviewsQuery>;

const slug = single.trim().min(1).max(120);
const id = (name: string) => z.uuid({ error: `must be the ${name} id (a uuid)` });

export const reviewParams = z.object({ slug, reviewId: id('review') });
export const questionParams = z.object({ slug, questionId: id('question') });
export const answerParams = z.object({ slug, questionId: id('question'), answerId: id('answer') });
export const photoParams = z.object({ slug, photoId: id('photo') });
export const photoIdParams = z.object({ photoId: id('photo') });
/** The file part of a public photo URL: `<uuid>.jpg`. */
export const photoFileParams = z.object({ file: z.string().regex(/^[0-9a-f-]{36}\.jpg$/, 'must be <photo id>.jpg') });
/** The file part of a logo URL: `<uuid>.png`. */
export const logoFileParams = z.object({ file: z.string().regex(/^[0-9a-f-]{36}\.png$/, 'must be <uuid>.png') });

const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);
const rating = z.number().int('must be a whole number').min(1, 'must be from 1 to 5').max(5, 'must be from 1 to 5');

export const reviewBody = z.object({ rating, text: text(REVIEW_TEXT_MAX).optional().default('') }).strict();
export type ReviewBody = z.infer<typeof reviewBody>;

export const reviewChangeBody = z
  .object({ rating: rating.optional(), text: text(REVIEW_TEXT_MAX).optional() })
  .strict()
  .refine((body) => body.rating !== undefined || body.text !== undefined, { message: 'give rating, text or both' });
export type ReviewChangeBody = z.infer<typeof reviewChangeBody>;

export const questionBody = z.object({ text: text(QUESTION_TEXT_MAX).min(1, 'must not be empty') }).strict();
export const answerBody = z.object({ text: text(ANSWER_TEXT_MAX).min(1, 'must not be empty') }).strict();

/** The field a photo upload carries its file in, and a logo upload. */
export const PHOTO_FIELD = 'photo';
export const LOGO_FIELD = 'logo';

/** A multipart form with exactly one file, in `fileField`, and no text fields but those named. */
function imageUploadBody(fileField: string, textFields: readonly string[], description: string) {
  return z
    .object({
      fields: z.record(z.string(), z.string()),
      files: z.array(z.custom<UploadedFile>((value) => typeof value === 'object' && value !== null && Buffer.isBuffer((value as UploadedFile).data))),
    })
    .transform((form, context) => {
      const files = form.files.filter((file) => file.field === fileField);
      if (files.length !== 1 || form.files.length !== 1) {
        context.addIssue({ code: 'custom', path: [fileField], message: `send exactly one file, in the field "${fileField}"` });
        return z.NEVER;
      }
      const unknown = Object.keys(form.fields).filter((name) => !textFields.includes(name));
      if (unknown.length > 0) {
        context.addIssue({ code: 'custom', path: [unknown[0]!], message: `unknown field; this upload takes ${[fileField, ...textFields].map((name) => `"${name}"`).join(' and ')}` });
        return z.NEVER;
      }
      const caption = form.fields.caption?.trim() ?? '';
      if (caption.length > CAPTION_MAX) {
        context.addIssue({ code: 'custom', path: ['caption'], message: `must be at most ${CAPTION_MAX} characters` });
        return z.NEVER;
      }
      return { file: files[0]!, caption: caption === '' ? null : caption };
    })
    .meta({ description });
}

/** POST /places/{slug}/photos, multipart/form-data: one file in `photo`, optional `caption`. The edge parses the form (edge/multipart.ts). */
export const photoUploadBody = imageUploadBody(
  PHOTO_FIELD,
  ['caption'],
  `multipart/form-data: "${PHOTO_FIELD}" (one image file: JPEG, PNG, WebP, GIF, AVIF, HEIF or TIFF) and optional "caption" (at most ${CAPTION_MAX} characters)`,
);
/** PUT /admin/places/{slug}/logo, multipart/form-data: one file in `logo`. */
export const logoUploadBody = imageUploadBody(LOGO_FIELD, [], `multipart/form-data: "${LOGO_FIELD}" (one image file; kept as PNG with transparency, at most 512 pixels a side)`);
export type PhotoUpload = z.infer<typeof photoUploadBody>;

export const PHOTO_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const photoQueueQuery = withinWindow(z.object({ ...paging, status: z.enum(PHOTO_STATUSES).optional().default('pending') }));

export const photoModerationBody = z
  .object({
    status: z.enum(['approved', 'rejected']).optional(),
    featured: z.boolean().optional(),
    reason: text(REJECTION_REASON_MAX).optional(),
  })
  .strict()
  .refine((body) => body.status !== undefined || body.featured !== undefined, { message: 'give status, featured or both' })
  .refine((body) => !(body.status === 'rejected' && body.featured === true), { message: 'a rejected photo cannot be featured', path: ['featured'] })
  .refine((body) => body.reason === undefined || body.status === 'rejected', { message: 'a reason goes with status "rejected"', path: ['reason'] });
export type PhotoModerationBody = z.infer<typeof photoModerationBody>;
