import { describe, expect, it } from 'vitest';
import { ApiError } from '../shared/errors.js';
import { unlessClientLeft } from './client-closed.js';

describe('unlessClientLeft', () => {
  it('reports a failure after the client left as CLIENT_CLOSED_REQUEST (499), and passes other outcomes through', async () => {
    const left = new AbortController();
    left.abort();
    const gone = await unlessClientLeft(Promise.reject(new DOMException('aborted', 'AbortError')), left.signal, 'bin packing').catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(ApiError);
    expect(gone).toMatchObject({ code: 'CLIENT_CLOSED_REQUEST', statusCode: 499 });
    const broken = new Error('solver bug');
    await expect(unlessClientLeft(Promise.reject(broken), new AbortController().signal, 'x')).rejects.toBe(broken);
    await expect(unlessClientLeft(Promise.reject(broken), undefined, 'x')).rejects.toBe(broken);
    await expect(unlessClientLeft(Promise.resolve(7), left.signal, 'x')).resolves.toBe(7);
  });
});
