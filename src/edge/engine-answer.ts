import { retryAfterOf } from '../services/routing/engine-envelope.js';

/**
 * An engine endpoint's answer, as its service gave it; an `available: false` answer that a retry may soon get
 * past (the engine busy or over its time budget) also says when, in Retry-After, as the 503s it replaces did.
 */
export async function engineAnswer<T>(setHeader: (name: string, value: string) => void, answer: Promise<T>): Promise<T> {
  const value = await answer;
  const seconds = retryAfterOf(value);
  if (seconds !== undefined) setHeader('retry-after', String(seconds));
  return value;
}
