/**
 * User content of places (docs/places.md "User content"), black-box against a started server on the default
 * data: reviews (one per user and place, rating recomputed on every write and on account deletion), questions
 * and answers, photo upload of a real image and of files that are not images, moderation, the served image with
 * its caching headers, the image resolution order in list, detail and thumb, ownership and bad input.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, registerUser, type ApiClient } from './support/api-client.js';
import { keysWithScopes } from './support/api-keys.js';
import type { ServerProcess } from './support/server-process.js';
import { startServerWithAdmin, type ServerWithAdmin } from './support/server-with-admin.js';

type User = Awaited<ReturnType<typeof registerUser>>;
let server: ServerProcess;
let api: ApiClient;
let admin: User;
let alice: User;
let bob: User;
let deployment: ServerWithAdmin;
/** Places of the default catalogue the tests write on (each describe its own, so ratings do not interfere). */
let places: string[];

beforeAll(async () => {
  deployment = await startServerWithAdmin('placecontent');
  ({ server, api, admin } = deployment);
  alice = await registerUser(api, 'Alice');
  bob = await registerUser(api, 'Bob');
  places = (await api.get('/places?sort=name&limit=8')).body.items.map((place: { slug: string }) => place.slug);
  expect(places).toHaveLength(8);
}, 180_000);

afterAll(async () => {
  await deployment?.stop();
});

function expectError(response: { status: number; body: any }, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body).toMatchObject({ statusCode: status, code, error: expect.any(String), requestId: expect.any(String) });
  expect(response.body.message).toBeDefined();
}

const NOWHERE = '00000000-0000-4000-8000-000000000000';

describe('reviews', () => {
  let slug: string;
  let aliceReview: any;
  beforeAll(() => {
    slug = places[0]!;
  });

  it('refuses anonymous writes and keys without the places scope', async () => {
    expectError(await api.post(`/places/${slug}/reviews`, { rating: 4 }), 401, 'UNAUTHENTICATED');
    const { keys } = await keysWithScopes(api, { places: false, search: true });
    expectError(await api.post(`/places/${slug}/reviews`, { rating: 4 }, undefined, { 'x-api-key': keys[0]! }), 403, 'FORBIDDEN');
  });

  it('stores a review and recomputes the rating of the place', async () => {
    const created = await api.post(`/places/${slug}/reviews`, { rating: 5, text: '  Quick service, clean.  ' }, alice.token);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ rating: 5, text: 'Quick service, clean.', author: { name: 'Alice' }, edited: false });
    aliceReview = created.body;
    expect((await api.post(`/places/${slug}/reviews`, { rating: 2, text: 'خدمة بطيئة' }, bob.token)).status).toBe(201);
    const detail = (await api.get(`/places/${slug}`)).body;
    expect(detail).toMatchObject({ rating: 3.5, reviewCount: 2 });
    expect(detail.reviews.map((review: any) => review.rating)).toEqual([2, 5]);
    const listed = (await api.get(`/places?sort=name&limit=8`)).body.items.find((place: any) => place.slug === slug);
    expect(listed).toMatchObject({ rating: 3.5, reviewCount: 2 });
    expect((await api.get(`/places/thumb?slug=${slug}`)).body.rating).toBe(3.5);
    expect((await api.get(`/places?minRating=3.4&sort=name`)).body.items.map((place: any) => place.slug)).toContain(slug);
  });

  it('answers a second review by the same user with 409 naming the first', async () => {
    const again = await api.post(`/places/${slug}/reviews`, { rating: 1 }, alice.token);
    expectError(again, 409, 'REVIEW_EXISTS');
    expect(again.body.details).toEqual({ reviewId: aliceReview.id });
    expect((await api.get(`/places/${slug}/reviews/mine`, alice.token)).body).toMatchObject({ id: aliceReview.id, rating: 5 });
  });

  it('lists reviews paged and sorted, with the distribution', async () => {
    const first = await api.get(`/places/${slug}/reviews?limit=1&sort=lowest`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 2, page: 1, limit: 1, sort: 'lowest', rating: 3.5, reviewCount: 2, distribution: { 1: 0, 2: 1, 3: 0, 4: 0, 5: 1 } });
    expect(first.body.items).toHaveLength(1);
    expect(first.body.items[0]).toMatchObject({ rating: 2, text: 'خدمة بطيئة', author: { name: 'Bob' } });
    const second = await api.get(`/places/${slug}/reviews?limit=1&page=2&sort=lowest`);
    expect(second.body.items[0].id).toBe(aliceReview.id);
    expect((await api.get(`/places/${slug}/reviews?sort=highest`)).body.items.map((review: any) => review.rating)).toEqual([5, 2]);
  });

  it("lets nobody change or delete another author's review", async () => {
    expectError(await api.patch(`/places/${slug}/reviews/${aliceReview.id}`, { rating: 1 }, bob.token), 403, 'FORBIDDEN');
    expectError(await api.delete(`/places/${slug}/reviews/${aliceReview.id}`, bob.token), 403, 'FORBIDDEN');
    expectError(await api.patch(`/places/${slug}/reviews/${NOWHERE}`, { rating: 1 }, bob.token), 404, 'NOT_FOUND');
    // a review is reached under its own place only
    expectError(await api.delete(`/places/${places[1]}/reviews/${aliceReview.id}`, alice.token), 404, 'NOT_FOUND');
    expect((await api.get(`/places/${slug}`)).body.rating).toBe(3.5);
  });

  it('edits and deletes the author’s own review, the rating following', async () => {
    const edited = await api.patch(`/places/${slug}/reviews/${aliceReview.id}`, { rating: 3 }, alice.token);
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: aliceReview.id, rating: 3, text: 'Quick service, clean.', edited: true });
    expect((await api.get(`/places/${slug}`)).body).toMatchObject({ rating: 2.5, reviewCount: 2 });
    const bobs = (await api.get(`/places/${slug}/reviews/mine`, bob.token)).body;
    expect(await api.delete(`/places/${slug}/reviews/${bobs.id}`, bob.token)).toMatchObject({ status: 200, body: { ok: true, deleted: true } });
    expect((await api.get(`/places/${slug}`)).body).toMatchObject({ rating: 3, reviewCount: 1 });
    expect((await api.delete(`/places/${slug}/reviews/${aliceReview.id}`, alice.token)).status).toBe(200);
    expect((await api.get(`/places/${slug}`)).body).toMatchObject({ rating: 0, reviewCount: 0, reviews: [] });
    expect((await api.get(`/places/thumb?slug=${slug}`)).body.rating).toBeNull();
    expect((await api.get(`/places/${slug}/reviews/mine`, alice.token)).body).toBeNull();
  });

  it('lets an API key review as its owner', async () => {
    const { keys } = await keysWithScopes(api, { places: true });
    const headers = { 'x-api-key': keys[0]! };
    const created = await api.post(`/places/${places[1]}/reviews`, { rating: 4 }, undefined, headers);
    expect(created.status).toBe(201);
    expect(created.body.author).toEqual({ name: 'keyholder' });
    expect((await api.get(`/places/${places[1]}/reviews/mine`, undefined, headers)).body.id).toBe(created.body.id);
    expect((await api.delete(`/places/${places[1]}/reviews/${created.body.id}`, undefined)).status).toBe(401);
  });

  it("recomputes the rating when an author's account is deleted", async () => {
    const carol = await registerUser(api, 'Carol');
    expect((await api.post(`/places/${places[2]}/reviews`, { rating: 1 }, carol.token)).status).toBe(201);
    expect((await api.get(`/places/${places[2]}`)).body).toMatchObject({ rating: 1, reviewCount: 1 });
    const deleted = await fetch(`${server.baseUrl}/api/v1/auth/me`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${carol.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ confirm: 'DELETE', password: PASSWORD }),
    });
    expect(deleted.status).toBe(200);
    expect((await api.get(`/places/${places[2]}`)).body).toMatchObject({ rating: 0, reviewCount: 0 });
  });

  it('refuses bad input with 400 and the error body', async () => {
    for (const body of [{ rating: 6 }, { rating: 0 }, { rating: 4.5 }, { rating: '5' }, {}, { rating: 3, text: 'x'.repeat(2001) }, { rating: 3, stars: 2 }]) {
      const response = await api.post(`/places/${slug}/reviews`, body, alice.token);
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(Array.isArray(response.body.message)).toBe(true);
    }
    expectError(await api.patch(`/places/${slug}/reviews/${NOWHERE}`, {}, alice.token), 400, 'VALIDATION_ERROR');
    expectError(await api.patch(`/places/${slug}/reviews/not-a-uuid`, { rating: 2 }, alice.token), 400, 'VALIDATION_ERROR');
    for (const query of ['limit=abc', 'limit=51', 'limit=0', 'page=0', 'sort=best', 'page=1000&limit=50']) {
      expectError(await api.get(`/places/${slug}/reviews?${query}`), 400, 'VALIDATION_ERROR');
    }
  });

  it('answers an unknown place with 200 null on reads and 404 on writes', async () => {
    const reviews = await api.get('/places/no-such-place-here/reviews');
    expect(reviews.status).toBe(200);
    expect(reviews.body).toBeNull();
    expectError(await api.post('/places/no-such-place-here/reviews', { rating: 3 }, alice.token), 404, 'NOT_FOUND');
  });
});

describe('questions and answers', () => {
  let slug: string;
  beforeAll(() => {
    slug = places[3]!;
  });

  it('asks, answers, lists and deletes, each author their own', async () => {
    const question = await api.post(`/places/${slug}/questions`, { text: 'Is there parking? هل يوجد موقف سيارات؟' }, alice.token);
    expect(question.status).toBe(201);
    expect(question.body).toMatchObject({ text: 'Is there parking? هل يوجد موقف سيارات؟', author: { name: 'Alice' }, answerCount: 0, answers: [] });
    const id = question.body.id;
    const answers = [];
    for (const text of ['Yes, behind the building.', 'نعم', 'Only at night.', 'Street parking too.']) {
      const answer = await api.post(`/places/${slug}/questions/${id}/answers`, { text }, bob.token);
      expect(answer.status).toBe(201);
      answers.push(answer.body);
    }
    const listed = await api.get(`/places/${slug}/questions`);
    expect(listed.body).toMatchObject({ total: 1, page: 1, limit: 20 });
    expect(listed.body.items[0]).toMatchObject({ id, answerCount: 4 });
    expect(listed.body.items[0].answers.map((answer: any) => answer.text)).toEqual(['Yes, behind the building.', 'نعم', 'Only at night.']);
    const rest = await api.get(`/places/${slug}/questions/${id}/answers?limit=2&page=2`);
    expect(rest.body).toMatchObject({ total: 4, page: 2, limit: 2 });
    expect(rest.body.items.map((answer: any) => answer.text)).toEqual(['Only at night.', 'Street parking too.']);
    expect((await api.get(`/places/${slug}`)).body.questions[0]).toMatchObject({ id, answerCount: 4 });

    expectError(await api.delete(`/places/${slug}/questions/${id}/answers/${answers[0].id}`, alice.token), 403, 'FORBIDDEN');
    expectError(await api.delete(`/places/${slug}/questions/${id}`, bob.token), 403, 'FORBIDDEN');
    expect((await api.delete(`/places/${slug}/questions/${id}/answers/${answers[0].id}`, bob.token)).status).toBe(200);
    expect((await api.get(`/places/${slug}/questions/${id}/answers`)).body.total).toBe(3);
    expect((await api.delete(`/places/${slug}/questions/${id}`, alice.token)).status).toBe(200);
    expect((await api.get(`/places/${slug}/questions`)).body).toMatchObject({ total: 0, items: [] });
    expectError(await api.get(`/places/${slug}/questions/${id}/answers`), 404, 'NOT_FOUND');
    expectError(await api.post(`/places/${slug}/questions/${id}/answers`, { text: 'late' }, bob.token), 404, 'NOT_FOUND');
  });

  it('refuses empty, long and anonymous text', async () => {
    expectError(await api.post(`/places/${slug}/questions`, { text: '   ' }, alice.token), 400, 'VALIDATION_ERROR');
    expectError(await api.post(`/places/${slug}/questions`, { text: 'q'.repeat(501) }, alice.token), 400, 'VALIDATION_ERROR');
    expectError(await api.post(`/places/${slug}/questions`, { text: 'anyone?' }), 401, 'UNAUTHENTICATED');
    const question = (await api.post(`/places/${slug}/questions`, { text: 'Open on Friday?' }, alice.token)).body;
    expectError(await api.post(`/places/${slug}/questions/${question.id}/answers`, { text: 'a'.repeat(1001) }, bob.token), 400, 'VALIDATION_ERROR');
    expectError(await api.post(`/places/${places[4]}/questions/${question.id}/answers`, { text: 'wrong place' }, bob.token), 404, 'NOT_FOUND');
  });
});

/** A real photo: a 3000×2000 JPEG with EXIF naming the camera, drawn with sharp. */
async function cameraPhoto(colour: string): Promise<Buffer> {
  return sharp({ create: { width: 3000, height: 2000, channels: 3, background: colour } })
    .jpeg({ quality: 90 })
    .withExif({ IFD0: { Make: 'SecretCam', Model: 'Tracker 9000' } })
    .toBuffer();
}

async function upload(slug: string, token: string | undefined, files: { field?: string; bytes: Buffer; name: string; type: string }[], caption?: string) {
  const form = new FormData();
  for (const file of files) form.append(file.field ?? 'photo', new Blob([file.bytes], { type: file.type }), file.name);
  if (caption !== undefined) form.set('caption', caption);
  const response = await fetch(`${server.baseUrl}/api/v1/places/${slug}/photos`, { method: 'POST', body: form, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, body: (await response.json()) as any };
}

describe('photos', () => {
  let slug: string;
  let first: any;
  let second: any;
  beforeAll(() => {
    slug = places[5]!;
  });

  it('re-encodes an uploaded photo and keeps it pending, unseen', async () => {
    const uploaded = await upload(slug, alice.token, [{ bytes: await cameraPhoto('#c03030'), name: 'shop.jpg', type: 'image/jpeg' }], 'The shop front');
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    expect(uploaded.body).toMatchObject({ status: 'pending', url: null, width: 2048, height: 1365, caption: 'The shop front', featured: false, placeSlug: slug, author: { name: 'Alice' } });
    first = uploaded.body;
    expect((await api.get(`/places/${slug}/photos`)).body).toMatchObject({ total: 0, items: [] });
    expect((await api.get(`/places/${slug}`)).body).toMatchObject({ photos: [], imageUrl: null, imageSource: null });
    expect((await fetch(`${server.baseUrl}/uploads/place-photos/${first.id}.jpg`)).status).toBe(404);
    const mine = await api.get('/me/place-photos', alice.token);
    expect(mine.body).toMatchObject({ total: 1, items: [{ id: first.id, status: 'pending' }] });
    expect((await api.get('/me/place-photos', bob.token)).body.total).toBe(0);
  });

  it('refuses a file that is not an image with 400 INVALID_IMAGE', async () => {
    const text = await upload(slug, alice.token, [{ bytes: Buffer.from('this is a text file, not a photo\n'), name: 'photo.jpg', type: 'image/jpeg' }]);
    expectError(text, 400, 'INVALID_IMAGE');
    expect(text.body.details).toEqual({ reason: 'not_an_image' });
    const svg = await upload(slug, alice.token, [{ bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"/>'), name: 'x.svg', type: 'image/svg+xml' }]);
    expectError(svg, 400, 'INVALID_IMAGE');
    expect(svg.body.details.reason).toBe('unsupported_format');
    const tiny = await upload(slug, alice.token, [{ bytes: await sharp({ create: { width: 16, height: 16, channels: 3, background: '#fff' } }).png().toBuffer(), name: 't.png', type: 'image/png' }]);
    expect(tiny.body.details.reason).toBe('too_small');
  });

  it('refuses a malformed form, a missing login and an oversized body', async () => {
    const photo = await cameraPhoto('#3030c0');
    expectError(await upload(slug, alice.token, []), 400, 'VALIDATION_ERROR');
    expectError(await upload(slug, alice.token, [{ bytes: photo, name: 'a.jpg', type: 'image/jpeg' }, { bytes: photo, name: 'b.jpg', type: 'image/jpeg' }]), 400, 'VALIDATION_ERROR');
    expectError(await upload(slug, alice.token, [{ field: 'image', bytes: photo, name: 'a.jpg', type: 'image/jpeg' }]), 400, 'VALIDATION_ERROR');
    expectError(await upload(slug, alice.token, [{ bytes: photo, name: 'a.jpg', type: 'image/jpeg' }], 'c'.repeat(301)), 400, 'VALIDATION_ERROR');
    expectError(await upload(slug, undefined, [{ bytes: photo, name: 'a.jpg', type: 'image/jpeg' }]), 401, 'UNAUTHENTICATED');
    expectError(await upload('no-such-place-here', alice.token, [{ bytes: photo, name: 'a.jpg', type: 'image/jpeg' }]), 404, 'NOT_FOUND');
    const json = await fetch(`${server.baseUrl}/api/v1/places/${slug}/photos`, { method: 'POST', headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' }, body: '{}' });
    expect(json.status).toBe(415);
    const huge = await upload(slug, alice.token, [{ bytes: Buffer.alloc(11 * 1024 * 1024, 1), name: 'big.jpg', type: 'image/jpeg' }]).catch(() => ({ status: 413, body: null }));
    expect(huge.status).toBe(413);
  });

  it('is moderated by operators only', async () => {
    expectError(await api.get('/admin/place-photos', alice.token), 403, 'FORBIDDEN');
    expectError(await api.patch(`/admin/place-photos/${first.id}`, { status: 'approved' }, alice.token), 403, 'FORBIDDEN');
    const queue = await api.get('/admin/place-photos?status=pending', admin.token);
    expect(queue.status).toBe(200);
    const queued = queue.body.items.find((item: any) => item.id === first.id);
    expect(queued).toMatchObject({ status: 'pending', placeSlug: slug, imagePath: `/admin/place-photos/${first.id}/image` });
    const image = await fetch(`${server.baseUrl}/api/v1/admin/place-photos/${first.id}/image`, { headers: { authorization: `Bearer ${admin.token}` } });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expectError(await api.patch(`/admin/place-photos/${first.id}`, { status: 'rejected', featured: true }, admin.token), 400, 'VALIDATION_ERROR');
    expectError(await api.patch(`/admin/place-photos/${NOWHERE}`, { status: 'approved' }, admin.token), 404, 'NOT_FOUND');
    const approved = await api.patch(`/admin/place-photos/${first.id}`, { status: 'approved' }, admin.token);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', featured: false, url: expect.stringMatching(new RegExp(`/uploads/place-photos/${first.id}\\.jpg$`)) });
  });

  it('serves an approved photo without metadata, with caching headers', async () => {
    const url = `${server.baseUrl}/uploads/place-photos/${first.id}.jpg`;
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
    const etag = response.headers.get('etag');
    expect(etag).toBe(`"${first.id}"`);
    const bytes = Buffer.from(await response.arrayBuffer());
    const metadata = await sharp(bytes).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 2048, height: 1365 });
    expect(metadata.exif).toBeUndefined();
    expect(bytes.includes(Buffer.from('SecretCam'))).toBe(false);
    const again = await fetch(url, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect((await fetch(`${server.baseUrl}/uploads/place-photos/not-a-photo.png`)).status).toBe(400);
  });

  it('resolves the image: the oldest approved photo, then the featured one', async () => {
    const photos = await api.get(`/places/${slug}/photos`);
    expect(photos.body).toMatchObject({ total: 1, items: [{ id: first.id, caption: 'The shop front', width: 2048, height: 1365 }] });
    const detail = (await api.get(`/places/${slug}`)).body;
    expect(detail).toMatchObject({ imageUrl: photos.body.items[0].url, imageSource: 'photo', imageWidth: 2048, imageHeight: 1365, photos: [{ id: first.id }] });
    // the thumb's url takes a logo or a featured photo only; imageUrl follows the full order
    expect((await api.get(`/places/thumb?slug=${slug}`)).body).toMatchObject({ url: null, source: null, imageUrl: photos.body.items[0].url, imageSource: 'photo' });

    second = (await upload(slug, bob.token, [{ bytes: await cameraPhoto('#30c030'), name: 'inside.jpg', type: 'image/jpeg' }])).body;
    expect((await api.patch(`/admin/place-photos/${second.id}`, { featured: true }, admin.token)).body).toMatchObject({ status: 'approved', featured: true });
    const featured = (await api.get(`/places/${slug}/photos`)).body.items;
    expect(featured.map((photo: any) => [photo.id, photo.featured])).toEqual([[second.id, true], [first.id, false]]);
    const thumb = (await api.get(`/places/thumb?slug=${slug}`)).body;
    expect(thumb).toMatchObject({ url: featured[0].url, source: 'photo', imageUrl: featured[0].url, imageSource: 'photo' });
    const listed = (await api.get('/places?sort=name&limit=8')).body.items.find((place: any) => place.slug === slug);
    expect(listed).toMatchObject({ imageUrl: featured[0].url, imageSource: 'photo' });
    // featuring the first moves the mark (one featured photo per place)
    await api.patch(`/admin/place-photos/${first.id}`, { featured: true }, admin.token);
    expect((await api.get(`/places/${slug}/photos`)).body.items.map((photo: any) => [photo.id, photo.featured])).toEqual([[first.id, true], [second.id, false]]);
  });

  it('puts an operator-set logo first, kept as PNG with its transparency', async () => {
    const logo = await sharp({ create: { width: 800, height: 400, channels: 4, background: { r: 0, g: 90, b: 200, alpha: 0.5 } } }).png().toBuffer();
    const put = async (token: string, bytes: Buffer, field = 'logo') => {
      const form = new FormData();
      form.set(field, new Blob([bytes], { type: 'image/png' }), 'logo.png');
      const response = await fetch(`${server.baseUrl}/api/v1/admin/places/${slug}/logo`, { method: 'PUT', body: form, headers: { authorization: `Bearer ${token}` } });
      return { status: response.status, body: (await response.json()) as any };
    };
    expectError(await put(alice.token, logo), 403, 'FORBIDDEN');
    expectError(await put(admin.token, Buffer.from('GIF89a but not really')), 400, 'INVALID_IMAGE');
    expectError(await put(admin.token, logo, 'photo'), 400, 'VALIDATION_ERROR');
    const set = await put(admin.token, logo);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ slug, logoUrl: expect.stringMatching(/^\/uploads\/place-logos\/[0-9a-f-]{36}\.png$/), width: 512, height: 256 });
    // imageUrl is absolute on the site origin (SITE_URL, here its default http://localhost:<port>)
    const absolute = `http://localhost:${server.port}${set.body.logoUrl}`;
    expect((await api.get(`/places/${slug}`)).body).toMatchObject({ logoUrl: set.body.logoUrl, imageUrl: absolute, imageSource: 'logo' });
    expect((await api.get(`/places/thumb?slug=${slug}`)).body).toMatchObject({ url: absolute, source: 'logo', imageUrl: absolute, imageSource: 'logo' });
    const served = await fetch(`${server.baseUrl}${set.body.logoUrl}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(await sharp(Buffer.from(await served.arrayBuffer())).metadata()).toMatchObject({ format: 'png', width: 512, height: 256, hasAlpha: true });
    // a second logo replaces the first, whose file goes
    const again = await put(admin.token, logo);
    expect((await fetch(`${server.baseUrl}${set.body.logoUrl}`)).status).toBe(404);
    expect((await api.delete(`/admin/places/${slug}/logo`, admin.token)).body).toEqual({ ok: true, deleted: true });
    expect((await fetch(`${server.baseUrl}${again.body.logoUrl}`)).status).toBe(404);
    expectError(await api.delete(`/admin/places/${slug}/logo`, admin.token), 404, 'NOT_FOUND');
    expect((await api.get(`/places/thumb?slug=${slug}`)).body).toMatchObject({ source: 'photo', imageSource: 'photo' });
  });

  it('hides a rejected photo and tells its uploader why', async () => {
    const third = (await upload(slug, bob.token, [{ bytes: await cameraPhoto('#777777'), name: 'blurry.jpg', type: 'image/jpeg' }])).body;
    const rejected = await api.patch(`/admin/place-photos/${third.id}`, { status: 'rejected', reason: 'Blurry' }, admin.token);
    expect(rejected.body).toMatchObject({ status: 'rejected', featured: false, rejectionReason: 'Blurry', url: null });
    expect((await api.get(`/places/${slug}/photos`)).body.total).toBe(2);
    expect((await fetch(`${server.baseUrl}/uploads/place-photos/${third.id}.jpg`)).status).toBe(404);
    const mine = (await api.get('/me/place-photos', bob.token)).body.items.find((photo: any) => photo.id === third.id);
    expect(mine).toMatchObject({ status: 'rejected', rejectionReason: 'Blurry' });
  });

  it('lets only the uploader delete a photo, and the file goes with it', async () => {
    expectError(await api.delete(`/places/${slug}/photos/${first.id}`, bob.token), 403, 'FORBIDDEN');
    expectError(await api.delete(`/places/${slug}/photos/${NOWHERE}`, bob.token), 404, 'NOT_FOUND');
    expect((await api.delete(`/places/${slug}/photos/${first.id}`, alice.token)).body).toEqual({ ok: true, deleted: true });
    expect((await fetch(`${server.baseUrl}/uploads/place-photos/${first.id}.jpg`)).status).toBe(404);
    expect((await api.get(`/places/${slug}/photos`)).body.items.map((photo: any) => photo.id)).toEqual([second.id]);
    expectError(await api.get(`/admin/place-photos/${first.id}/image`, admin.token), 404, 'NOT_FOUND');
  });
});

describe('documentation', () => {
  it('lists the user-content routes in the OpenAPI document', async () => {
    const document = (await api.get('/openapi.json')).body;
    expect(document.paths['/api/v1/places/{slug}/photos'].post.requestBody.content['multipart/form-data']).toBeDefined();
    expect(document.paths['/api/v1/places/{slug}/reviews'].post['x-scopes']).toEqual(['places']);
    expect(document.paths['/api/v1/places/{slug}/reviews'].post.responses['409']).toBeDefined();
    expect(document.paths['/api/v1/admin/place-photos/{photoId}'].patch['x-access']).toBe('admin');
  });
});
