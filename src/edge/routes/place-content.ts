import { z } from 'zod';
import { ApiError } from '../../shared/errors.js';
import { defineRoute, HttpReply, type RouteDefinition } from '../route.js';
import { PHOTO_CACHE_SECONDS, type PlaceContentService } from '../../services/places/place-content-service.js';
import {
  answerBody,
  answerParams,
  contentPageQuery,
  logoFileParams,
  logoUploadBody,
  photoFileParams,
  photoIdParams,
  photoModerationBody,
  photoParams,
  photoQueueQuery,
  photoUploadBody,
  questionBody,
  questionParams,
  reviewBody,
  reviewChangeBody,
  reviewParams,
  reviewsQuery,
} from '../../services/places/place-content-queries.js';
import {
  answerSchema,
  answersPageResponse,
  deletedResponse,
  ownPhotoSchema,
  ownPhotosPageResponse,
  photosPageResponse,
  questionSchema,
  questionsPageResponse,
  reviewSchema,
  reviewsPageResponse,
} from '../../services/places/place-content-responses.js';
import { placeSlugParams } from '../../services/places/place-queries.js';

/** Multipart bodies of a photo upload may be this long: the image (at most 10 MiB) and the form around it. */
export const PHOTO_UPLOAD_BODY_LIMIT_BYTES = 10 * 1024 * 1024 + 64 * 1024;

// access, scopes and throttles as the user-content rows of services/access/endpoint-access.ts say
const route = { tags: ['place content'] };
const WRITE_ERRORS = ['NOT_FOUND'] as const;
const OWN_ERRORS = ['NOT_FOUND', 'FORBIDDEN'] as const;

/** An image with its caching headers; 304 when the client holds it (If-None-Match); 404 when there is none. */
function servedImage(image: { bytes: Buffer; contentType: string; etag: string } | null, ifNoneMatch: string | undefined): HttpReply {
  if (!image) throw new ApiError('NOT_FOUND', { message: 'Image not found' });
  const caching = { etag: image.etag, 'cache-control': `public, max-age=${PHOTO_CACHE_SECONDS}`, 'x-content-type-options': 'nosniff' };
  if (ifNoneMatch?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === image.etag)) return HttpReply.empty(304, caching);
  return HttpReply.content(image.bytes, image.contentType, 200, caching);
}

/** Reviews, questions and answers, photos of places (docs/places.md "User content"). */
export function placeContentRoutes(content: PlaceContentService): RouteDefinition[] {
  return [
    defineRoute({
      ...route,
      method: 'GET',
      path: '/places/{slug}/reviews',
      summary: "A place's reviews, paged (sort newest|oldest|highest|lowest), with its rating, count and star distribution; 200 null for an unknown slug",
      params: placeSlugParams,
      query: reviewsQuery,
      response: reviewsPageResponse,
      handler: ({ params, query }) => content.reviews(params.slug, query),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/places/{slug}/reviews/mine',
      summary: 'Your review of the place, or null',
      params: placeSlugParams,
      response: reviewSchema.nullable(),
      errors: [...WRITE_ERRORS],
      handler: ({ principal, params }) => content.myReview(principal, params.slug),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/places/{slug}/reviews',
      summary: 'Review a place: rating 1–5 and optional text (at most 2000 characters); one review per user and place (a second answers 409 REVIEW_EXISTS)',
      params: placeSlugParams,
      body: reviewBody,
      response: reviewSchema,
      errors: [...WRITE_ERRORS, 'REVIEW_EXISTS'],
      handler: ({ principal, params, body }) => content.createReview(principal, params.slug, body),
    }),
    defineRoute({
      ...route,
      method: 'PATCH',
      path: '/places/{slug}/reviews/{reviewId}',
      summary: 'Change your review (rating, text or both)',
      params: reviewParams,
      body: reviewChangeBody,
      response: reviewSchema,
      errors: [...OWN_ERRORS],
      handler: ({ principal, params, body }) => content.updateReview(principal, params.slug, params.reviewId, body),
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/places/{slug}/reviews/{reviewId}',
      summary: 'Delete your review',
      params: reviewParams,
      response: deletedResponse,
      errors: [...OWN_ERRORS],
      handler: ({ principal, params }) => content.deleteReview(principal, params.slug, params.reviewId),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/places/{slug}/questions',
      summary: "A place's questions, newest first, each with its answer count and oldest three answers; 200 null for an unknown slug",
      params: placeSlugParams,
      query: contentPageQuery,
      response: questionsPageResponse,
      handler: ({ params, query }) => content.questions(params.slug, query),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/places/{slug}/questions',
      summary: 'Ask a question about a place (at most 500 characters)',
      params: placeSlugParams,
      body: questionBody,
      response: questionSchema,
      errors: [...WRITE_ERRORS],
      handler: ({ principal, params, body }) => content.ask(principal, params.slug, body.text),
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/places/{slug}/questions/{questionId}',
      summary: 'Delete your question (its answers go with it)',
      params: questionParams,
      response: deletedResponse,
      errors: [...OWN_ERRORS],
      handler: ({ principal, params }) => content.deleteQuestion(principal, params.slug, params.questionId),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/places/{slug}/questions/{questionId}/answers',
      summary: 'The answers to a question, oldest first, paged; 200 null for an unknown slug',
      params: questionParams,
      query: contentPageQuery,
      response: answersPageResponse,
      errors: ['NOT_FOUND'],
      handler: ({ params, query }) => content.answers(params.slug, params.questionId, query),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/places/{slug}/questions/{questionId}/answers',
      summary: 'Answer a question (at most 1000 characters)',
      params: questionParams,
      body: answerBody,
      response: answerSchema,
      errors: [...WRITE_ERRORS],
      handler: ({ principal, params, body }) => content.answerQuestion(principal, params.slug, params.questionId, body.text),
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/places/{slug}/questions/{questionId}/answers/{answerId}',
      summary: 'Delete your answer',
      params: answerParams,
      response: deletedResponse,
      errors: [...OWN_ERRORS],
      handler: ({ principal, params }) => content.deleteAnswer(principal, params.slug, params.questionId, params.answerId),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/places/{slug}/photos',
      summary: "A place's approved photos, featured first, then oldest; 200 null for an unknown slug",
      params: placeSlugParams,
      query: contentPageQuery,
      response: photosPageResponse,
      handler: ({ params, query }) => content.photos(params.slug, query),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/places/{slug}/photos',
      summary: 'Upload a photo (multipart: "photo" file, optional "caption"); re-encoded as JPEG without metadata, shown once an operator approves it',
      params: placeSlugParams,
      bodyKind: 'multipart',
      bodyLimitBytes: PHOTO_UPLOAD_BODY_LIMIT_BYTES,
      body: photoUploadBody,
      response: ownPhotoSchema,
      errors: [...WRITE_ERRORS, 'INVALID_IMAGE', 'SERVICE_UNAVAILABLE'],
      handler: ({ principal, params, body }) => content.upload(principal, params.slug, body),
    }),
    defineRoute({
      ...route,
      method: 'DELETE',
      path: '/places/{slug}/photos/{photoId}',
      summary: 'Delete your photo (any status); its file goes too',
      params: photoParams,
      response: deletedResponse,
      errors: [...OWN_ERRORS],
      handler: ({ principal, params }) => content.deletePhoto(principal, params.slug, params.photoId),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/me/place-photos',
      summary: 'Your photo uploads in every moderation status, newest first',
      query: contentPageQuery,
      response: ownPhotosPageResponse,
      handler: ({ principal, query }) => content.myPhotos(principal, query),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/uploads/place-photos/{file}',
      mount: 'root',
      summary: 'The image of an approved photo (JPEG), with ETag and Cache-Control; 404 for any other',
      params: photoFileParams,
      responseContentType: 'image/jpeg',
      errors: ['NOT_FOUND'],
      handler: async ({ params, headers }) => servedImage(await content.publicImage(params.file), headers['if-none-match']),
    }),
    defineRoute({
      ...route,
      method: 'GET',
      path: '/uploads/place-logos/{file}',
      mount: 'root',
      summary: "The logo of a place (PNG), as its logoUrl names it, with ETag and Cache-Control; 404 for a logo no place shows",
      params: logoFileParams,
      responseContentType: 'image/png',
      errors: ['NOT_FOUND'],
      handler: async ({ params, headers }) => servedImage(await content.publicLogo(params.file), headers['if-none-match']),
    }),
  ];
}

/** Operators moderate photos and set logos (docs/places.md "User content"). */
export function adminPlaceContentRoutes(content: PlaceContentService): RouteDefinition[] {
  const admin = { tags: ['admin', 'place content'] };
  return [
    defineRoute({
      ...admin,
      method: 'GET',
      path: '/admin/place-photos',
      summary: 'The moderation queue: photos of one status (default pending), oldest first',
      query: photoQueueQuery,
      response: ownPhotosPageResponse.extend({ status: z.string(), items: z.array(ownPhotoSchema.extend({ imagePath: z.string() })) }),
      handler: ({ query }) => content.moderationQueue(query),
    }),
    defineRoute({
      ...admin,
      method: 'GET',
      path: '/admin/place-photos/{photoId}/image',
      summary: 'The image of a photo in any status, for the operator deciding on it',
      params: photoIdParams,
      responseContentType: 'image/jpeg',
      errors: ['NOT_FOUND'],
      handler: async ({ params }) => {
        const image = await content.operatorImage(params.photoId);
        return HttpReply.content(image.bytes, image.contentType, 200, { 'cache-control': 'private, no-store', 'x-content-type-options': 'nosniff' });
      },
    }),
    defineRoute({
      ...admin,
      method: 'PATCH',
      path: '/admin/place-photos/{photoId}',
      summary: 'Approve or reject a photo (reason optional), and feature an approved one (one featured photo per place)',
      params: photoIdParams,
      body: photoModerationBody,
      response: ownPhotoSchema,
      errors: ['NOT_FOUND'],
      handler: ({ principal, params, body }) => content.moderate(principal, params.photoId, body),
    }),
    defineRoute({
      ...admin,
      method: 'PUT',
      path: '/admin/places/{slug}/logo',
      summary: "Set a place's logo (multipart: \"logo\" file); kept as PNG with transparency, at most 512 pixels a side; first in the image resolution order",
      params: placeSlugParams,
      bodyKind: 'multipart',
      bodyLimitBytes: PHOTO_UPLOAD_BODY_LIMIT_BYTES,
      body: logoUploadBody,
      response: z.object({ slug: z.string(), logoUrl: z.string(), width: z.number(), height: z.number(), bytes: z.number() }),
      errors: ['NOT_FOUND', 'INVALID_IMAGE', 'SERVICE_UNAVAILABLE'],
      handler: ({ params, body }) => content.setLogo(params.slug, body),
    }),
    defineRoute({
      ...admin,
      method: 'DELETE',
      path: '/admin/places/{slug}/logo',
      summary: "Remove a place's logo",
      params: placeSlugParams,
      response: deletedResponse,
      errors: ['NOT_FOUND'],
      handler: ({ params }) => content.removeLogo(params.slug),
    }),
  ];
}
