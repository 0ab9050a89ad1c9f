import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeGet } from '../bench/open-loop.js';
import { sequentialRequests } from '../bench/sequential.js';

/**
 * The benches' sequential client frames answers by Content-Length over one socket. A raw server here answers each
 * request in pieces cut at awkward places (inside the head, at the blank line, inside the body), so a framing slip
 * shows as a hang (the client's timeout), a count off by one or a wrong status.
 */
let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

function answer(index: number): Buffer {
  const body = Buffer.from(index % 5 === 0 ? '' : 'x'.repeat((index * 7919) % 70_000));
  const status = index % 4 === 3 ? '404 Not Found' : '200 OK';
  return Buffer.concat([Buffer.from(`HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\ncontent-length: ${body.length}\r\n\r\n`, 'latin1'), body]);
}

async function serve(write: (socket: Socket, bytes: Buffer, index: number) => void): Promise<number> {
  server = createServer((socket) => {
    let index = 0;
    socket.on('data', (chunk) => {
      // one request per chunk is not promised by TCP; count request heads
      for (let at = chunk.indexOf('\r\n\r\n'); at >= 0; at = chunk.indexOf('\r\n\r\n', at + 4)) write(socket, answer(index), index++);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server!.address() as { port: number }).port;
}

const requests = (port: number, count: number) => Array.from({ length: count }, (_, index) => encodeGet(`127.0.0.1:${port}`, `/r/${index}`));

describe('bench sequential client', () => {
  it('frames answers cut inside the head, at the blank line and inside the body', async () => {
    const port = await serve((socket, bytes, index) => {
      const cuts = [1 + (index % 17), bytes.indexOf('\r\n\r\n') + 2, bytes.length - 1 - (index % 3)].filter((cut) => cut > 0 && cut < bytes.length).sort((a, b) => a - b);
      let from = 0;
      const pieces = [...cuts, bytes.length].map((to) => {
        const piece = bytes.subarray(from, Math.max(from, to));
        from = Math.max(from, to);
        return piece;
      });
      pieces.forEach((piece, order) => setTimeout(() => socket.write(piece), order));
    });
    const result = await sequentialRequests({ host: '127.0.0.1', port, requests: requests(port, 60), warmup: 10, timeoutMs: 5_000 });
    expect(result.latencies.length).toBe(50);
    expect([...result.latencies].every((ms) => ms > 0)).toBe(true);
    // statuses of answers 10..59: every fourth (index % 4 === 3) is a 404
    expect(result.non2xx).toBe(Array.from({ length: 50 }, (_, offset) => offset + 10).filter((index) => index % 4 === 3).length);
    expect(result.p50Ms).toBeLessThanOrEqual(result.p99Ms);
    expect(result.sentAtMs[49]).toBeGreaterThan(result.sentAtMs[0]!);
  });

  it('fails instead of hanging when the server never answers', async () => {
    const port = await serve(() => undefined);
    await expect(sequentialRequests({ host: '127.0.0.1', port, requests: requests(port, 3), warmup: 1, timeoutMs: 300 })).rejects.toThrow(/no answer to request 0/);
  });

  it('refuses chunked answers, which it does not frame', async () => {
    const port = await serve((socket) => socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n'));
    await expect(sequentialRequests({ host: '127.0.0.1', port, requests: requests(port, 2), warmup: 0, timeoutMs: 2_000 })).rejects.toThrow(/chunked/);
  });
});
