/** The answer of an outbound call was longer than the caller is willing to hold. */
export class ResponseTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`response body over ${maxBytes} bytes`);
    this.name = 'ResponseTooLargeError';
  }
}

/**
 * Reads a fetch response's body as UTF-8 text, at most `maxBytes` of it: a
 * misbehaving (or hostile) peer cannot make the process buffer an endless
 * answer. Over the limit the stream is cancelled and ResponseTooLargeError
 * thrown. The fetch's own abort signal still bounds the time.
 */
export async function readBoundedText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new ResponseTooLargeError(maxBytes);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ResponseTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
