/**
 * One stream channel that stays connected: opens the socket, authenticates with the first message (never in
 * the URL, where keys end up in logs), reconnects with exponential backoff and jitter, and resumes from the
 * last position the caller processed (`since`). Messages sent while disconnected wait (bounded) and go out
 * once the server's `ready` frame arrived. Close codes that no retry can fix (4401 not authenticated, 4403,
 * 4404, 1009) end the stream.
 */

/** What the client needs of a WebSocket: the browser's, Node 22's global one, or the `ws` package's. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}
export type WebSocketFactory = new (url: string) => WebSocketLike;

export interface Credentials {
  apiKey?: string | undefined;
  accessToken?: string | undefined;
}

export interface BackoffOptions {
  /** First retry delay, ms (default 500). */
  initialDelayMs?: number;
  /** Longest retry delay, ms (default 15 000). */
  maxDelayMs?: number;
  /** Give up after this many failed attempts in a row (default: never). */
  maxAttempts?: number;
}

export type StreamState = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** Close codes after which reconnecting cannot help. */
export const FATAL_CLOSE_CODES = new Set([4401, 4403, 4404, 1009]);
const OPEN = 1;
const MAX_PENDING = 256;

export interface StreamSocketOptions {
  url: () => string;
  credentials: () => Credentials;
  webSocket?: WebSocketFactory | undefined;
  backoff?: BackoffOptions | undefined;
  onFrame: (frame: { type: string; [field: string]: unknown }) => void;
  onState: (state: StreamState, detail?: { code?: number; reason?: string; attempt?: number; delayMs?: number }) => void;
}

export class StreamSocket {
  private socket: WebSocketLike | undefined;
  private attempt = 0;
  private ready = false;
  private stopped = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly pending: string[] = [];

  constructor(private readonly options: StreamSocketOptions) {
    this.connect();
  }

  get isReady(): boolean {
    return this.ready;
  }

  /** Sends now when ready, else queues (the oldest dropped past 256 waiting). */
  send(message: object): void {
    const text = JSON.stringify(message);
    if (this.ready && this.socket?.readyState === OPEN) this.socket.send(text);
    else {
      if (this.pending.length >= MAX_PENDING) this.pending.shift();
      this.pending.push(text);
    }
  }

  close(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.socket?.close(1000, 'client closed');
    this.options.onState('closed', { code: 1000 });
  }

  private connect(): void {
    const Factory = this.options.webSocket ?? (globalThis as { WebSocket?: WebSocketFactory }).WebSocket;
    if (!Factory) throw new Error('no WebSocket implementation: pass options.webSocket (e.g. the ws package) on Node < 22');
    this.options.onState(this.attempt === 0 ? 'connecting' : 'reconnecting', { attempt: this.attempt });
    const socket = new Factory(this.options.url());
    this.socket = socket;
    this.ready = false;
    socket.onopen = () => {
      const { apiKey, accessToken } = this.options.credentials();
      socket.send(JSON.stringify(apiKey ? { type: 'auth', apiKey } : { type: 'auth', token: accessToken }));
    };
    socket.onmessage = (event) => {
      let frame: { type: string; [field: string]: unknown };
      try {
        frame = JSON.parse(typeof event.data === 'string' ? event.data : String(event.data)) as typeof frame;
      } catch {
        return;
      }
      if (frame.type === 'ready') {
        this.ready = true;
        this.attempt = 0;
        this.options.onState('open');
        this.options.onFrame(frame);
        while (this.pending.length && socket.readyState === OPEN) socket.send(this.pending.shift()!);
        return;
      }
      this.options.onFrame(frame);
    };
    socket.onerror = () => {};
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.ready = false;
      if (this.stopped) return;
      const { maxAttempts = Infinity, initialDelayMs = 500, maxDelayMs = 15_000 } = this.options.backoff ?? {};
      if (FATAL_CLOSE_CODES.has(event.code) || this.attempt >= maxAttempts) {
        this.stopped = true;
        this.options.onState('closed', { code: event.code, reason: event.reason });
        return;
      }
      const delayMs = Math.min(maxDelayMs, initialDelayMs * 2 ** this.attempt) * (0.5 + Math.random() / 2);
      this.attempt++;
      this.options.onState('reconnecting', { code: event.code, reason: event.reason, attempt: this.attempt, delayMs });
      this.timer = setTimeout(() => this.connect(), delayMs);
    };
  }

  /** Drops the connection as a network failure would (tests, and a page coming back from sleep). */
  dropConnection(): void {
    this.socket?.close(4000, 'dropped by client');
  }
}

/** A tiny typed event emitter. */
export class Listeners<Events extends Record<string, unknown>> {
  private readonly map = new Map<keyof Events, Set<(value: never) => void>>();

  on<K extends keyof Events>(name: K, listener: (value: Events[K]) => void): () => void {
    let set = this.map.get(name);
    if (!set) this.map.set(name, (set = new Set()));
    set.add(listener as (value: never) => void);
    return () => set.delete(listener as (value: never) => void);
  }

  emit<K extends keyof Events>(name: K, value: Events[K]): void {
    for (const listener of this.map.get(name) ?? []) (listener as (value: Events[K]) => void)(value);
  }
}
