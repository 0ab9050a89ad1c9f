/**
 * The navigation session stream (`/api/v1/navigation/sessions/{id}/stream`): send fixes, get progress,
 * events, re-routes and the end of the session. Resumes after a dropped connection from the last event it
 * delivered, so every event reaches the listener exactly once and in `seq` order.
 */
import type { NavigationEvent, NavigationFix, NavigationFrame, NavigationRoute, NavigationSession } from './frames.js';
import { Listeners, StreamSocket, type BackoffOptions, type Credentials, type StreamState, type WebSocketFactory } from './stream-socket.js';

export interface NavigationStreamOptions {
  /** Resume after this event seq (default 0: every retained event). */
  since?: number;
  webSocket?: WebSocketFactory;
  backoff?: BackoffOptions;
}

type ProgressFrame = Extract<NavigationFrame, { type: 'progress' }>;

export interface NavigationStreamEvents extends Record<string, unknown> {
  frame: NavigationFrame;
  ready: NavigationSession;
  event: NavigationEvent;
  progress: ProgressFrame;
  route: { route: NavigationRoute; reroutes: number };
  status: Extract<NavigationFrame, { type: 'status' }>;
  gap: { fromSeq: number; toSeq: number };
  error: Extract<NavigationFrame, { type: 'error' }>;
  state: { state: StreamState; code?: number; reason?: string; attempt?: number; delayMs?: number };
}

export class NavigationStream extends Listeners<NavigationStreamEvents> {
  private lastSeq: number;
  private readonly socket: StreamSocket;
  private messageCount = 0;

  constructor(wsOrigin: string, readonly sessionId: string, credentials: () => Credentials, options: NavigationStreamOptions = {}) {
    super();
    this.lastSeq = options.since ?? 0;
    this.socket = new StreamSocket({
      url: () => `${wsOrigin}/api/v1/navigation/sessions/${encodeURIComponent(sessionId)}/stream?since=${this.lastSeq}`,
      credentials,
      webSocket: options.webSocket,
      backoff: options.backoff,
      onFrame: (frame) => this.deliver(frame as NavigationFrame),
      onState: (state, detail) => this.emit('state', { state, ...detail }),
    });
  }

  /** The seq of the last event delivered: where a reconnect resumes. */
  get lastEventSeq(): number {
    return this.lastSeq;
  }

  /** Sends one fix; with `ack` the server answers an `ack` frame. */
  sendFix(fix: NavigationFix, ack = false): void {
    this.socket.send({ type: 'fix', fix, ...(ack ? { id: `m${++this.messageCount}` } : {}) });
  }

  /** Sends up to 50 fixes, oldest first, as one message (one quota unit). */
  sendFixes(fixes: NavigationFix[], ack = false): void {
    for (let start = 0; start < fixes.length; start += 50) {
      this.socket.send({ type: 'fixes', fixes: fixes.slice(start, start + 50), ...(ack ? { id: `m${++this.messageCount}` } : {}) });
    }
  }

  ping(): void {
    this.socket.send({ type: 'ping' });
  }

  /** Simulates a dropped connection; the stream reconnects and resumes with `since`. */
  dropConnection(): void {
    this.socket.dropConnection();
  }

  close(): void {
    this.socket.close();
  }

  private deliver(frame: NavigationFrame): void {
    if (frame.type === 'event') {
      // the server never repeats an event on one socket; across a reconnect the `since` makes sure, and this guards it
      if (frame.event.seq <= this.lastSeq) return;
      this.lastSeq = frame.event.seq;
    }
    this.emit('frame', frame);
    switch (frame.type) {
      case 'ready':
        return this.emit('ready', frame.session);
      case 'event':
        return this.emit('event', frame.event);
      case 'progress':
        return this.emit('progress', frame);
      case 'route':
        return this.emit('route', { route: frame.route, reroutes: frame.reroutes });
      case 'status':
        return this.emit('status', frame);
      case 'gap':
        this.lastSeq = Math.max(this.lastSeq, frame.toSeq);
        return this.emit('gap', { fromSeq: frame.fromSeq, toSeq: frame.toSeq });
      case 'error':
        return this.emit('error', frame);
      default:
        return;
    }
  }
}
