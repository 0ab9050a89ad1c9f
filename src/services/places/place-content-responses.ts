/** Response schemas of the user-content endpoints of places, for the OpenAPI document (docs/places.md "User content"). */
import { z } from 'zod';

const author = z.object({ name: z.string().nullable().describe("The author's account name; null when the account has none") });

export const reviewSchema = z.object({
  id: z.string(),
  rating: z.number().describe('1 to 5'),
  text: z.string(),
  author,
  createdAt: z.string(),
  updatedAt: z.string(),
  edited: z.boolean(),
});

export const answerSchema = z.object({ id: z.string(), text: z.string(), author, createdAt: z.string() });

export const questionSchema = z.object({
  id: z.string(),
  text: z.string(),
  author,
  createdAt: z.string(),
  answerCount: z.number(),
  answers: z.array(answerSchema).describe('The oldest answers (at most 3); page the rest with GET …/questions/{questionId}/answers'),
});

export const photoSchema = z.object({
  id: z.string(),
  url: z.string().describe('Absolute URL of the image (JPEG), served with caching headers'),
  width: z.number(),
  height: z.number(),
  caption: z.string().nullable(),
  featured: z.boolean(),
  author,
  createdAt: z.string(),
});

/** A photo as its uploader and operators see it: any status. */
export const ownPhotoSchema = photoSchema.extend({
  url: z.string().nullable().describe('The public URL once approved, else null'),
  status: z.enum(['pending', 'approved', 'rejected']),
  rejectionReason: z.string().nullable(),
  moderatedAt: z.string().nullable(),
  placeSlug: z.string().nullable(),
  bytes: z.number(),
});

const pageOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), total: z.number(), page: z.number(), limit: z.number() });

export const reviewsPageResponse = pageOf(reviewSchema)
  .extend({
    sort: z.string(),
    rating: z.number().describe('Mean rating of the place, 0 with no review'),
    reviewCount: z.number(),
    distribution: z.object({ 1: z.number(), 2: z.number(), 3: z.number(), 4: z.number(), 5: z.number() }).describe('Reviews per star count'),
  })
  .nullable();
export const questionsPageResponse = pageOf(questionSchema).nullable();
export const answersPageResponse = pageOf(answerSchema).nullable();
export const photosPageResponse = pageOf(photoSchema).nullable();
export const ownPhotosPageResponse = pageOf(ownPhotoSchema);
export const deletedResponse = z.object({ ok: z.literal(true), deleted: z.literal(true) });

export type PlaceReview = z.infer<typeof reviewSchema>;
export type PlaceQuestion = z.infer<typeof questionSchema>;
export type PlacePhoto = z.infer<typeof photoSchema>;
