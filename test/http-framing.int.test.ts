import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useServer } from './support/server-fixture.js';

/**
 * Request framing and head size (issue #22, faults 4 and 9), over raw sockets: a request two parsers could split
 * differently is refused with 400 and its connection closed before anything after it is read as a request; a
 * target or headers over the limits get 414 / 431 with the error body instead of being served or reset.
 */
const fixture = useServer();

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes `request` as is on a new connection; answers every response read and whether the server closed. */
function exchange(request: string, waitMs = 1_500): Promise<{ responses: RawResponse[]; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(fixture.server.port, '127.0.0.1', () => socket.write(request));
    let received = Buffer.alloc(0);
    let closed = false;
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ responses: parseResponses(received), closed });
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (chunk) => (received = Buffer.concat([received, chunk])));
    socket.on('end', () => {
      closed = true;
      done();
    });
    socket.on('error', reject);
  });
}

function parseResponses(bytes: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = bytes;
  while (rest.length > 0) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) throw new Error(`incomplete response head: ${rest.toString('latin1').slice(0, 200)}`);
    const [statusLine, ...lines] = rest.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
    const length = Number(headers['content-length'] ?? 0);
    responses.push({ status: Number(statusLine!.split(' ')[1]), headers, body: rest.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8') });
    rest = rest.subarray(headEnd + 4 + length);
  }
  return responses;
}

/** A GET /health the test can look for in the log by its request id. */
const tracedHealth = (requestId: string) => `GET /health HTTP/1.1\r\nHost: x\r\nX-Request-Id: ${requestId}\r\n\r\n`;

async function loggedRequestIds(): Promise<string[]> {
  // the log is written in batches at least every 200 ms
  await new Promise((resolve) => setTimeout(resolve, 600));
  return fixture.server.output.filter((line) => line.includes('"msg":"request"')).map((line) => (JSON.parse(line) as { requestId: string }).requestId);
}

describe('ambiguous framing', () => {
  it('answers two Content-Length headers with 400 and closes, never reading the rest of the body as a request', async () => {
    const smuggled = `smuggled-${Date.now()}`;
    const body = `{}${tracedHealth(smuggled)}`;
    const { responses, closed } = await exchange(
      `POST /api/v1/geo/pluscode HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(responses.map((response) => response.status)).toEqual([400]);
    expect(closed).toBe(true);
    expect(responses[0]!.headers.connection).toBe('close');
    const error = JSON.parse(responses[0]!.body);
    expect(error).toEqual({
      statusCode: 400,
      message: expect.any(String),
      error: 'Bad Request',
      code: 'MALFORMED_REQUEST',
      details: { reason: 'duplicate_content_length' },
      requestId: responses[0]!.headers['x-request-id'],
    });
    expect(await loggedRequestIds()).not.toContain(smuggled);
  });

  it('refuses two Transfer-Encoding headers the same way', async () => {
    const { responses, closed } = await exchange(
      'POST /api/v1/geo/pluscode HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    );
    expect(responses.map((response) => response.status)).toEqual([400]);
    expect(JSON.parse(responses[0]!.body)).toMatchObject({ code: 'MALFORMED_REQUEST', details: { reason: 'duplicate_transfer_encoding' } });
    expect(closed).toBe(true);
  });

  it('never serves Content-Length with Transfer-Encoding (the uWS parser closes the connection before any handler)', async () => {
    const smuggled = `te-smuggled-${Date.now()}`;
    const { responses, closed } = await exchange(`POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${tracedHealth(smuggled)}`);
    expect(responses.filter((response) => response.status < 400)).toEqual([]);
    expect(closed).toBe(true);
    expect(await loggedRequestIds()).not.toContain(smuggled);
  });

  it('still serves well-framed pipelined requests on one connection', async () => {
    const { responses } = await exchange(`${tracedHealth('pipelined-1')}POST /api/v1/geo/pluscode HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}${tracedHealth('pipelined-2')}`, 800);
    expect(responses.map((response) => response.status)).toEqual([200, 404, 200]);
  });
});

describe('oversize request heads', () => {
  it('answers a request target over 8 KiB with 414 and the error body', async () => {
    const { responses, closed } = await exchange(`GET /health?q=${'a'.repeat(9_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(responses.map((response) => response.status)).toEqual([414]);
    expect(JSON.parse(responses[0]!.body)).toMatchObject({ statusCode: 414, error: 'URI Too Long', code: 'URI_TOO_LONG', details: { limitBytes: 8192 } });
    expect(closed).toBe(true);
  });

  it('answers headers over 16 KiB with 431 and the error body', async () => {
    const { responses } = await exchange(`GET /health HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(17_000)}\r\n\r\n`);
    expect(responses.map((response) => response.status)).toEqual([431]);
    expect(JSON.parse(responses[0]!.body)).toMatchObject({ statusCode: 431, code: 'HEADERS_TOO_LARGE', details: { limitBytes: 16384 } });
  });

  it('answers a CORS preflight (OPTIONS) over the limits with the error body too (found by the OpenAPI fuzz test)', async () => {
    // the preflight's uWS handler had no refusal of its own: 414 and 431 went out with no content type and a body of spaces
    const target = await exchange(`OPTIONS /api/v1/me/saved-places/${'x'.repeat(9_000)} HTTP/1.1\r\nHost: x\r\nOrigin: https://example.jo\r\n\r\n`);
    expect(target.responses.map((response) => response.status)).toEqual([414]);
    expect(target.responses[0]!.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(target.responses[0]!.body);
    expect(body).toMatchObject({ statusCode: 414, error: 'URI Too Long', code: 'URI_TOO_LONG', details: { limitBytes: 8192 } });
    expect(body.requestId).toBe(target.responses[0]!.headers['x-request-id']);
    expect(target.closed).toBe(true);
    const headers = await exchange(`OPTIONS /api/v1/me/saved-places HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(17_000)}\r\n\r\n`);
    expect(headers.responses.map((response) => response.status)).toEqual([431]);
    expect(JSON.parse(headers.responses[0]!.body)).toMatchObject({ statusCode: 431, code: 'HEADERS_TOO_LARGE' });
    // a preflight under the limits is answered as before
    const preflight = await exchange(`OPTIONS /api/v1/me/saved-places HTTP/1.1\r\nHost: x\r\nOrigin: https://example.jo\r\nAccess-Control-Request-Method: POST\r\n\r\n`, 500);
    expect(preflight.responses.map((response) => response.status)).toEqual([204]);
  });

  it('serves heads under the limits as before', async () => {
    const { responses } = await exchange(`GET /health?q=${'a'.repeat(4_000)} HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(8_000)}\r\n\r\n`, 500);
    expect(responses.map((response) => response.status)).toEqual([200]);
  });
});
