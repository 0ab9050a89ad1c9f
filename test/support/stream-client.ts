/**
 * A stream client (navigation sessions, live fleets) for black-box tests: connects (or reports the
 * handshake's HTTP refusal), keeps every frame received, and waits for frames.
 */
import WebSocket from 'ws';

// Frames are asserted field by field: tests read arbitrary shapes.
export type Frame = Record<string, any>;

export interface StreamClient {
  frames: Frame[];
  send(message: unknown): void;
  /** Resolves with the first frame (from `from` on) matching, or rejects after `timeoutMs`. */
  waitFor(predicate: (frame: Frame) => boolean, timeoutMs?: number, from?: number): Promise<Frame>;
  close(): Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
}

export function streamUrl(baseUrl: string, sessionId: string, query = ''): string {
  return `${baseUrl.replace(/^http/, 'ws')}/api/v1/navigation/sessions/${sessionId}/stream${query ? `?${query}` : ''}`;
}

export function fleetStreamUrl(baseUrl: string, fleetId: string, query = ''): string {
  return `${baseUrl.replace(/^http/, 'ws')}/api/v1/optimize/fleets/${fleetId}/stream${query ? `?${query}` : ''}`;
}

/**
 * `localAddress` (a loopback address such as 127.0.0.7) makes the client one of many phones: the server's limits
 * per client address count it apart from the test's other sockets.
 */
export function connectStream(url: string, headers: Record<string, string> = {}, { localAddress }: { localAddress?: string } = {}): Promise<StreamClient> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers, ...(localAddress ? { localAddress } : {}) });
    const frames: Frame[] = [];
    const waiters = new Set<() => void>();
    const closed = new Promise<{ code: number; reason: string }>((done) => socket.once('close', (code, reason) => done({ code, reason: reason.toString() })));
    socket.on('message', (data) => {
      frames.push(JSON.parse(data.toString()) as Frame);
      for (const wake of waiters) wake();
    });
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => reject(Object.assign(new Error(`handshake refused: ${response.statusCode}`), { status: response.statusCode, body: body ? JSON.parse(body) : undefined })));
    });
    socket.once('error', (error) => reject(error));
    socket.once('open', () =>
      resolve({
        frames,
        closed,
        send: (message) => socket.send(JSON.stringify(message)),
        waitFor: (predicate, timeoutMs = 10_000, from = 0) =>
          new Promise((found, fail) => {
            const check = () => {
              const match = frames.slice(from).find(predicate);
              if (!match) return false;
              waiters.delete(check);
              clearTimeout(timer);
              found(match);
              return true;
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames.map((frame) => frame.type))}`));
            }, timeoutMs);
            waiters.add(check);
            check();
          }),
        close: async () => {
          if (socket.readyState === WebSocket.OPEN) socket.close(1000);
          await closed;
        },
      }),
    );
  });
}
