/**
 * What users contribute to places (docs/places.md "User content"): reviews (one per user and place, rating
 * 1–5), questions and answers, photos (re-encoded, stored, shown once an operator approves them). Writes act
 * for the signed-in user, or for the owner of the API key (services/user-data/acting-user.ts, as every
 * key-or-bearer user endpoint); edits and deletes reach the author's own rows only (another author's row:
 * 403, no row: 404). It is also the places service's source of photos and detail content (PlaceContentSource).
 */
import { randomUUID } from 'node:crypto';
import type { PlaceRecord } from '../../domain/place.js';
import type { Principal } from '../../domain/principal.js';
import { ApiError } from '../../shared/errors.js';
import { PhotoStoreFullError, type PhotoStore } from '../../store/files/photo-store.js';
import type { PlacePhotoRecord, PlacePhotoRepository } from '../../store/pg/place-photos.js';
import type { PlaceAnswerRecord, PlaceQuestionRecord, PlaceQuestionRepository } from '../../store/pg/place-questions.js';
import type { PlaceReviewRecord, PlaceReviewRepository } from '../../store/pg/place-reviews.js';
import type { PlaceRepository } from '../../store/pg/places.js';
import { actingUserId } from '../user-data/acting-user.js';
import type { TextLanguage } from './opening-hours.js';
import { DEFAULT_PHOTO_LIMITS, normaliseLogo, normalisePhoto, type NormalisedPhoto, type PhotoLimits } from './photo-images.js';
import type { ContentPageQuery, PhotoModerationBody, PhotoUpload, ReviewBody, ReviewChangeBody, ReviewsQuery } from './place-content-queries.js';
import type { PlaceContentSource, PlaceImage } from './places-service.js';

/** Photos one user may upload in 24 hours. */
export const PHOTOS_PER_USER_PER_DAY = 30;
/** Questions and answers one user may write in 24 hours. */
export const QUESTIONS_PER_USER_PER_DAY = 20;
export const ANSWERS_PER_USER_PER_DAY = 50;
/** What a place detail carries: the newest reviews, the first photos, the newest questions with their first answers. */
export const DETAIL_REVIEWS = 5;
export const DETAIL_PHOTOS = 10;
export const DETAIL_QUESTIONS = 5;
export const ANSWERS_PER_QUESTION = 3;
/** Where public photo URLs point (served at the site root, like logos: spec part 2 §2.4 `/uploads/...`). */
export const PHOTO_URL_PREFIX = '/uploads/place-photos/';
/** Where logo URLs point (`logoUrl` is this relative site path, spec part 2 §2.4). */
export const LOGO_URL_PREFIX = '/uploads/place-logos/';
/** Browsers and proxies keep a served photo this long (s); a photo later rejected or deleted drops out of caches within it. */
export const PHOTO_CACHE_SECONDS = 86_400;
const DAY_MS = 86_400_000;

export interface PlaceContentServiceDeps {
  reviews: PlaceReviewRepository;
  questions: PlaceQuestionRepository;
  photos: PlacePhotoRepository;
  places: Pick<PlaceRepository, 'findByIds'>;
  store: PhotoStore;
  /** A place by its slug (or OSM element slug), as GET /places/{slug} finds it. */
  findPlace(slug: string): Promise<PlaceRecord | null>;
  /** Absolute site origin public photo URLs are joined onto. */
  readonly siteUrl: string;
  photoLimits?: PhotoLimits;
  now?: () => number;
}

const page = <T>(items: T[], total: number, query: ContentPageQuery) => ({ items, total, page: query.page, limit: query.limit });
const offsetOf = (query: ContentPageQuery) => (query.page - 1) * query.limit;

function notFound(what: string): ApiError {
  return new ApiError('NOT_FOUND', { message: `${what} not found` });
}

function notYours(what: string): ApiError {
  return new ApiError('FORBIDDEN', { message: `Only its author may change or delete this ${what}`, details: { reason: 'not_author' } });
}

function overDailyCap(what: string, limit: number): ApiError {
  return new ApiError('RATE_LIMITED', {
    message: `At most ${limit} ${what} a day per user`,
    details: { limit, window: 'day', scope: 'user' },
  });
}

export class PlaceContentService implements PlaceContentSource {
  private readonly now: () => number;

  constructor(private readonly deps: PlaceContentServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  private async place(slug: string): Promise<PlaceRecord> {
    const place = await this.deps.findPlace(slug);
    if (!place) throw notFound(`Place ${slug}`);
    return place;
  }

  private photoUrl(photo: Pick<PlacePhotoRecord, 'storageKey'>): string {
    return new URL(`${PHOTO_URL_PREFIX}${photo.storageKey.slice(photo.storageKey.indexOf('/') + 1)}`, `${this.deps.siteUrl}/`).toString();
  }

  private review(record: PlaceReviewRecord) {
    return {
      id: record.id,
      rating: record.rating,
      text: record.text,
      author: { name: record.authorName },
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
      edited: record.updatedAt !== record.createdAt,
    };
  }

  private answer(record: PlaceAnswerRecord) {
    return { id: record.id, text: record.text, author: { name: record.authorName }, createdAt: record.createdAt };
  }

  private question(record: PlaceQuestionRecord) {
    return {
      id: record.id,
      text: record.text,
      author: { name: record.authorName },
      createdAt: record.createdAt,
      answerCount: record.answerCount,
      answers: record.answers.map((answer) => this.answer(answer)),
    };
  }

  private photo(record: PlacePhotoRecord) {
    return {
      id: record.id,
      url: this.photoUrl(record),
      width: record.width,
      height: record.height,
      caption: record.caption,
      featured: record.featured,
      author: { name: record.authorName },
      createdAt: record.createdAt,
    };
  }

  /** A photo with its moderation state, for its uploader and operators. */
  private ownPhoto(record: PlacePhotoRecord, slugs: Map<string, string>) {
    return {
      ...this.photo(record),
      url: record.status === 'approved' ? this.photoUrl(record) : null,
      status: record.status,
      rejectionReason: record.rejectionReason,
      moderatedAt: record.moderatedAt,
      placeSlug: slugs.get(record.placeId) ?? null,
      bytes: record.bytes,
    };
  }

  private async slugsOf(records: readonly PlacePhotoRecord[]): Promise<Map<string, string>> {
    const places = await this.deps.places.findByIds([...new Set(records.map((record) => record.placeId))]);
    return new Map(places.map((place) => [place.id, place.slug]));
  }

  // ── PlaceContentSource ──

  async photosOf(placeIds: readonly string[]): Promise<Map<string, PlaceImage>> {
    const best = await this.deps.photos.bestOf(placeIds);
    return new Map(best.map((photo) => [photo.placeId, { url: this.photoUrl(photo), source: 'photo' as const, width: photo.width, height: photo.height, featured: photo.featured }]));
  }

  async contentOf(placeId: string, _language: TextLanguage) {
    const [reviews, photos, questions] = await Promise.all([
      this.deps.reviews.page(placeId, 'newest', 0, DETAIL_REVIEWS),
      this.deps.photos.approvedPage(placeId, 0, DETAIL_PHOTOS),
      this.deps.questions.page(placeId, 0, DETAIL_QUESTIONS, ANSWERS_PER_QUESTION),
    ]);
    return {
      reviews: reviews.items.map((review) => this.review(review)),
      photos: photos.items.map((photo) => this.photo(photo)),
      questions: questions.items.map((question) => this.question(question)),
    };
  }

  // ── reviews ──

  /** GET /places/{slug}/reviews: null for an unknown slug, as the place detail. */
  async reviews(slug: string, query: ReviewsQuery) {
    const place = await this.deps.findPlace(slug);
    if (!place) return null;
    const result = await this.deps.reviews.page(place.id, query.sort, offsetOf(query), query.limit);
    const [one, two, three, four, five] = result.distribution as [number, number, number, number, number];
    const ratingSum = one + 2 * two + 3 * three + 4 * four + 5 * five;
    return {
      ...page(result.items.map((review) => this.review(review)), result.total, query),
      sort: query.sort,
      rating: result.total === 0 ? 0 : Math.round((ratingSum / result.total) * 100) / 100,
      reviewCount: result.total,
      distribution: { 1: one, 2: two, 3: three, 4: four, 5: five },
    };
  }

  /** GET /places/{slug}/reviews/mine: the caller's review of the place, or null. */
  async myReview(caller: Principal | undefined, slug: string) {
    const userId = actingUserId(caller);
    const place = await this.place(slug);
    const review = await this.deps.reviews.findByAuthor(place.id, userId);
    return review ? this.review(review) : null;
  }

  /** POST /places/{slug}/reviews: a second review by the same user is 409 REVIEW_EXISTS naming the first. */
  async createReview(caller: Principal | undefined, slug: string, body: ReviewBody) {
    const userId = actingUserId(caller);
    const place = await this.place(slug);
    const created = await this.deps.reviews.create(randomUUID(), place.id, userId, body.rating, body.text);
    if (created) return this.review(created);
    const existing = await this.deps.reviews.findByAuthor(place.id, userId);
    throw new ApiError('REVIEW_EXISTS', {
      message: 'You have already reviewed this place; change it with PATCH or delete it first',
      details: { reviewId: existing?.id ?? null },
    });
  }

  async updateReview(caller: Principal | undefined, slug: string, reviewId: string, body: ReviewChangeBody) {
    const userId = actingUserId(caller);
    const place = await this.place(slug);
    const updated = await this.deps.reviews.update(place.id, reviewId, userId, body);
    if (updated) return this.review(updated);
    throw (await this.deps.reviews.exists(place.id, reviewId)) ? notYours('review') : notFound('Review');
  }

  async deleteReview(caller: Principal | undefined, slug: string, reviewId: string) {
    const userId = actingUserId(caller);
    const place = await this.place(slug);
    if (await this.deps.reviews.delete(place.id, reviewId, userId)) return { ok: true as const, deleted: true as const };
    throw (await this.deps.reviews.exists(place.id, reviewId)) ? notYours('review') : notFound('Review');
  }

  // ── questions and answers ──

  async questions(slug: string, query: ContentPageQuery) {
    const place = await this.deps.findPlace(slug);
    if (!place) return null;
    const result = await this.deps.questions.page(place.id, offsetOf(query), query.limit, ANSWERS_PER_QUESTION);
    return page(result.items.map((question) => this.question(question)), result.total, query);
  }

  async ask(caller: Principal | undefined, slug: string, text: string) {
    const userId = actingUserId(caller);
    const place = await this.place(slug);
    if ((await this.deps.questions.countWrittenSince('question', userId, this.now() - DAY_MS)) >= QUESTIONS_PER_USER_PER_DAY) {
      throw overDailyCap('questions', QUESTIONS_PER_USER_PER_DAY);
    }
    return this.question(await this.deps.questions.create(randomUUID(), place.id, userId, text));
  }

  async deleteQuestion(caller: Principal | undefined, slug: string, questionId: string) {
    const userId = actingUserId(caller);
    const place = await this.place(slug);
    if (await this.deps.questions.delete(place.id, questionId, userId)) return { ok: true as const, deleted: true as const };
    throw (await this.deps.questions.questionExists(place.id, questionId)) ? notYours('question') : notFound('Question');
  }

  async answers(slug: string, questionId: string, query: ContentPageQuery) {
    const place = await this.deps.findPlace(slug);
    if (!place) return null;
    if (!(await this.deps.questions.questionExists(place.id, questionId))) throw notFound('Question');
    const result = await this.deps.questions.answers(place.id, questionId, offsetOf(query), query.limit);
    return page(result.items.map((answer) => this.answer(answer)), result.total, query);
  }

  async answerQuestion(caller: Principal | undefined, slug: string, questionId: string, text: string) {
    const userId = actingUserId(caller);
    const place = await this.place(slug);
    if ((await this.deps.questions.countWrittenSince('answer', userId, this.now() - DAY_MS)) >= ANSWERS_PER_USER_PER_DAY) {
      throw overDailyCap('answers', ANSWERS_PER_USER_PER_DAY);
    }
    const answer = await this.deps.questions.answer(randomUUID(), place.id, questionId, userId, text);
    if (!answer) throw notFound('Question');
    return this.answer(answer);
  }

  async deleteAnswer(caller: Principal | undefined, slug: string, questionId: string, answerId: string) {
    const userId = actingUserId(caller);
    const place = await this.place(slug);
    if (await this.deps.questions.deleteAnswer(place.id, questionId, answerId, userId)) return { ok: true as const, deleted: true as const };
    throw (await this.deps.questions.answerExists(place.id, questionId, answerId)) ? notYours('answer') : notFound('Answer');
  }

  // ── photos ──

  /** GET /places/{slug}/photos: approved photos only, featured first, then oldest. */
  async photos(slug: string, query: ContentPageQuery) {
    const place = await this.deps.findPlace(slug);
    if (!place) return null;
    const result = await this.deps.photos.approvedPage(place.id, offsetOf(query), query.limit);
    return page(result.items.map((photo) => this.photo(photo)), result.total, query);
  }

  /** POST /places/{slug}/photos: re-encoded, stored, recorded as pending until an operator decides. */
  async upload(caller: Principal | undefined, slug: string, upload: PhotoUpload) {
    const userId = actingUserId(caller);
    const place = await this.place(slug);
    if ((await this.deps.photos.countUploadedSince(userId, this.now() - DAY_MS)) >= PHOTOS_PER_USER_PER_DAY) {
      throw overDailyCap('photo uploads', PHOTOS_PER_USER_PER_DAY);
    }
    const image = await normalisePhoto(upload.file.data, this.deps.photoLimits ?? DEFAULT_PHOTO_LIMITS);
    const id = randomUUID();
    const storageKey = `place-photos/${id}.${image.extension}`;
    await this.store(storageKey, image);
    try {
      const record = await this.deps.photos.create({
        id, placeId: place.id, userId, storageKey, contentType: image.contentType, width: image.width, height: image.height, bytes: image.bytes.length, caption: upload.caption,
      });
      return this.ownPhoto(record, new Map([[place.id, place.slug]]));
    } catch (error) {
      await this.deps.store.delete(storageKey).catch(() => undefined);
      throw error;
    }
  }

  private async store(storageKey: string, image: NormalisedPhoto): Promise<void> {
    try {
      await this.deps.store.put(storageKey, image.bytes);
    } catch (error) {
      if (error instanceof PhotoStoreFullError) throw new ApiError('SERVICE_UNAVAILABLE', { message: 'The photo store is full', details: { reason: 'photo_store_full' } });
      throw error;
    }
  }

  async deletePhoto(caller: Principal | undefined, slug: string, photoId: string) {
    const userId = actingUserId(caller);
    const place = await this.place(slug);
    const storageKey = await this.deps.photos.delete(place.id, photoId, userId);
    if (!storageKey) throw (await this.deps.photos.exists(place.id, photoId)) ? notYours('photo') : notFound('Photo');
    await this.deps.store.delete(storageKey);
    return { ok: true as const, deleted: true as const };
  }

  /** GET /me/place-photos: the caller's uploads in every status, newest first. */
  async myPhotos(caller: Principal | undefined, query: ContentPageQuery) {
    const result = await this.deps.photos.byUploader(actingUserId(caller), offsetOf(query), query.limit);
    const slugs = await this.slugsOf(result.items);
    return page(result.items.map((photo) => this.ownPhoto(photo, slugs)), result.total, query);
  }

  /**
   * The bytes of an approved photo by the file name of its public URL, or null (pending, rejected, deleted
   * or never uploaded: all look alike to the public).
   */
  async publicImage(file: string): Promise<{ bytes: Buffer; contentType: string; etag: string } | null> {
    const photo = await this.deps.photos.findApprovedByKey(`place-photos/${file}`);
    if (!photo) return null;
    const bytes = await this.deps.store.get(photo.storageKey);
    return bytes ? { bytes, contentType: photo.contentType, etag: `"${photo.id}"` } : null;
  }

  // ── moderation (operators) ──

  async moderationQueue(query: ContentPageQuery & { status: PlacePhotoRecord['status'] }) {
    const result = await this.deps.photos.queue(query.status, offsetOf(query), query.limit);
    const slugs = await this.slugsOf(result.items);
    return { ...page(result.items.map((photo) => ({ ...this.ownPhoto(photo, slugs), imagePath: `/admin/place-photos/${photo.id}/image` })), result.total, query), status: query.status };
  }

  async moderate(operator: Principal | undefined, photoId: string, body: PhotoModerationBody) {
    if (operator?.kind !== 'user') throw new ApiError('UNAUTHENTICATED');
    const photo = await this.deps.photos.moderate(photoId, body, operator.userId);
    if (!photo) throw notFound('Photo');
    return this.ownPhoto(photo, await this.slugsOf([photo]));
  }

  /** Any photo's bytes, whatever its status (operators look before they decide). */
  async operatorImage(photoId: string): Promise<{ bytes: Buffer; contentType: string }> {
    const photo = await this.deps.photos.find(photoId);
    const bytes = photo ? await this.deps.store.get(photo.storageKey) : null;
    if (!photo || !bytes) throw notFound('Photo');
    return { bytes, contentType: photo.contentType };
  }

  // ── logos (operators) ──

  /** PUT /admin/places/{slug}/logo: the logo comes first in the image resolution order (spec part 2 §2.4). */
  async setLogo(slug: string, upload: PhotoUpload) {
    const place = await this.place(slug);
    const image = await normaliseLogo(upload.file.data);
    const file = `${randomUUID()}.${image.extension}`;
    const storageKey = `place-logos/${file}`;
    await this.store(storageKey, image);
    const replaced = await this.deps.photos.replaceLogo(place.id, `${LOGO_URL_PREFIX}${file}`);
    if (!replaced) {
      await this.deps.store.delete(storageKey);
      throw notFound(`Place ${slug}`);
    }
    await this.removeLogoFile(replaced.previous);
    return { slug: place.slug, logoUrl: `${LOGO_URL_PREFIX}${file}`, width: image.width, height: image.height, bytes: image.bytes.length };
  }

  async removeLogo(slug: string) {
    const place = await this.place(slug);
    const replaced = await this.deps.photos.replaceLogo(place.id, null);
    if (!replaced?.previous) throw notFound('Logo');
    await this.removeLogoFile(replaced.previous);
    return { ok: true as const, deleted: true as const };
  }

  private async removeLogoFile(path: string | null): Promise<void> {
    if (path?.startsWith(LOGO_URL_PREFIX)) await this.deps.store.delete(`place-logos/${path.slice(LOGO_URL_PREFIX.length)}`);
  }

  /** The bytes of a logo some place shows, by the file name of its URL, or null. */
  async publicLogo(file: string): Promise<{ bytes: Buffer; contentType: string; etag: string } | null> {
    if (!(await this.deps.photos.isLogoInUse(`${LOGO_URL_PREFIX}${file}`))) return null;
    const bytes = await this.deps.store.get(`place-logos/${file}`);
    return bytes ? { bytes, contentType: 'image/png', etag: `"${file.slice(0, file.indexOf('.'))}"` } : null;
  }

  /**
   * Deletes stored files no record names any more: photos whose rows went with a deleted account (cascade),
   * logos no place shows. Files younger than `graceMs` are left alone: an upload writes its file before its row.
   */
  async sweepOrphanFiles(graceMs = 60 * 60_000): Promise<number> {
    const before = this.now() - graceMs;
    const photos = (await this.deps.store.list('place-photos')).filter((entry) => entry.writtenAtMs < before).map((entry) => entry.key);
    const logos = (await this.deps.store.list('place-logos')).filter((entry) => entry.writtenAtMs < before).map((entry) => entry.key);
    const recorded = await this.deps.photos.recordedKeys(photos);
    const shown = await this.deps.photos.logosInUse(logos.map((key) => `${LOGO_URL_PREFIX}${key.slice(key.indexOf('/') + 1)}`));
    const orphans = [
      ...photos.filter((key) => !recorded.has(key)),
      ...logos.filter((key) => !shown.has(`${LOGO_URL_PREFIX}${key.slice(key.indexOf('/') + 1)}`)),
    ];
    for (const key of orphans) await this.deps.store.delete(key);
    return orphans.length;
  }
}
