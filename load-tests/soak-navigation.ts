/**
 * Navigation sessions for the soak: N sessions stream one fix a second over WebSocket along real routes; a
 * session that arrives is replaced by a new one, so sessions are created and ended all run long. Fix→progress
 * latency is measured from each fix's scheduled send time (open loop); events are checked for gaps and
 * duplicates by their sequence numbers, as the navigation load scenario does.
 */
import WebSocket from 'ws';
import { clientAddress } from '../bench/support.js';
import type { HttpClient, OutcomeRecorder } from './open-loop.js';
import { NASR_CITY_PAIRS, numberAfter, pointAt, walkOf, type RouteWalk } from './route-walk.js';

const PROGRESS_PREFIX = '{"type":"progress","fixSeq":';
const RING = 64;

interface Streamer {
  socket: WebSocket;
  walk: RouteWalk;
  meters: number;
  sent: number;
  scheduledAt: Float64Array;
  progressSeen: number;
  lastEventSeq: number;
  serverEventSeq: number;
  /** the session is no longer active: no more fixes; its socket closes once its last events are in */
  arriving: boolean;
  ended: boolean;
}

export interface NavigationTotals {
  sessionsCreated: number;
  sessionsEnded: number;
  fixesSent: number;
  progressFrames: number;
  /** fixes sent that never got their progress frame (sockets still open at the end) */
  unanswered: number;
  lostEvents: number;
  duplicateEvents: number;
  errorFrames: number;
  /** sockets that failed to open, and open sockets the server closed while their session was active */
  socketFailures: number;
  unexpectedCloses: number;
}

export class SoakNavigation {
  private readonly streamers: Streamer[] = [];
  private readonly walks = new Map<string, RouteWalk>();
  private readonly retired: Streamer[] = [];
  private timer: NodeJS.Timeout | undefined;
  private created = 0;
  private counters = { fixesSent: 0, progressFrames: 0, errorFrames: 0, socketFailures: 0, unexpectedCloses: 0, duplicates: 0, gaps: 0 };

  constructor(
    private readonly client: HttpClient,
    private readonly port: number,
    private readonly auth: Record<string, string>,
    private readonly recorder: OutcomeRecorder,
    private readonly sessions: number,
  ) {}

  /** Creates the sessions and opens their sockets (at most 16 at a time). */
  async open(): Promise<void> {
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(16, this.sessions) }, async () => {
        while (next < this.sessions) {
          next++;
          await this.addSession();
        }
      }),
    );
  }

  /** Sends one fix a second per session, spread over the second; latency from each fix's scheduled time. */
  startStreaming(): void {
    const tickMs = 10;
    const slices = 1000 / tickMs;
    const startAt = performance.now();
    let tick = 0;
    this.timer = setInterval(() => {
      // catch up on ticks this generator missed, so a stall here shows as latency, not as fewer fixes
      const due = Math.floor((performance.now() - startAt) / tickMs);
      for (; tick < due; tick++) {
        const scheduledAt = startAt + tick * tickMs;
        for (let index = tick % slices; index < this.streamers.length; index += slices) this.sendFix(this.streamers[index]!, scheduledAt);
      }
    }, tickMs);
  }

  async stop(): Promise<NavigationTotals> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    // the last answers arrive before counting what never came
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const all = [...this.streamers, ...this.retired];
    let unanswered = 0;
    let lost = this.counters.gaps;
    for (const streamer of all) {
      if (!streamer.arriving) unanswered += Math.max(0, streamer.sent - streamer.progressSeen);
      lost += Math.max(0, streamer.serverEventSeq - streamer.lastEventSeq);
    }
    for (const streamer of this.streamers) streamer.socket.terminate();
    return {
      sessionsCreated: this.created,
      sessionsEnded: this.retired.length,
      fixesSent: this.counters.fixesSent,
      progressFrames: this.counters.progressFrames,
      unanswered,
      lostEvents: lost,
      duplicateEvents: this.counters.duplicates,
      errorFrames: this.counters.errorFrames,
      socketFailures: this.counters.socketFailures,
      unexpectedCloses: this.counters.unexpectedCloses,
    };
  }

  private async addSession(): Promise<void> {
    const number = this.created++;
    const [a, b, c, d] = NASR_CITY_PAIRS[number % NASR_CITY_PAIRS.length]!;
    const address = clientAddress(50_000 + number);
    const startedAt = performance.now();
    const answer = await this.client.call({
      method: 'POST',
      path: '/api/v1/navigation/sessions',
      body: JSON.stringify({ origin: { lat: a, lng: b }, destination: { lat: c, lng: d } }),
      headers: { ...this.auth, 'x-forwarded-for': address },
    });
    this.recorder.record('navigation.create', answer.status, performance.now() - startedAt, answer.failure ?? answer.body.slice(0, 200));
    if (answer.status !== 201 && answer.status !== 200) return;
    const session = JSON.parse(answer.body) as { sessionId: string; routeShape: string };
    let walk = this.walks.get(session.routeShape);
    if (!walk) this.walks.set(session.routeShape, (walk = walkOf(session.routeShape)));
    const socket = new WebSocket(`ws://127.0.0.1:${this.port}/api/v1/navigation/sessions/${session.sessionId}/stream`, { headers: { ...this.auth, 'x-forwarded-for': address }, perMessageDeflate: false });
    const streamer: Streamer = { socket, walk, meters: (number * 37) % Math.max(1, walk.along[walk.along.length - 1]! / 3), sent: 0, scheduledAt: new Float64Array(RING), progressSeen: 0, lastEventSeq: 0, serverEventSeq: 0, arriving: false, ended: false };
    const opened = await new Promise<boolean>((resolve) => {
      socket.once('open', () => resolve(true));
      socket.once('error', () => resolve(false));
    });
    if (!opened) {
      this.counters.socketFailures++;
      return;
    }
    socket.on('message', (data: Buffer) => this.onFrame(streamer, data.toString()));
    socket.on('close', () => this.retire(streamer));
    this.streamers.push(streamer);
  }

  private onFrame(streamer: Streamer, text: string): void {
    if (text.startsWith(PROGRESS_PREFIX)) {
      this.counters.progressFrames++;
      const fixSeq = numberAfter(text, PROGRESS_PREFIX);
      streamer.serverEventSeq = Math.max(streamer.serverEventSeq, numberAfter(text, '"eventSeq":'));
      if (fixSeq > streamer.progressSeen) {
        streamer.progressSeen = fixSeq;
        if (fixSeq <= streamer.sent) this.recorder.record('navigation.fix', 200, performance.now() - streamer.scheduledAt[fixSeq % RING]!);
      }
      // arrived (or otherwise no longer active): close it; a new session takes its place
      if (!streamer.arriving && !text.includes('"status":"active"')) {
        streamer.arriving = true;
        setTimeout(() => streamer.socket.close(), 2_000);
      }
      return;
    }
    const frame = JSON.parse(text) as { type: string; event?: { seq: number } };
    if (frame.type === 'event') {
      const seq = frame.event!.seq;
      if (seq <= streamer.lastEventSeq) this.counters.duplicates++;
      else if (seq > streamer.lastEventSeq + 1) this.counters.gaps += seq - streamer.lastEventSeq - 1;
      streamer.lastEventSeq = Math.max(streamer.lastEventSeq, seq);
    } else if (frame.type === 'error' && text.includes('"code":"SESSION_ENDED"')) {
      // a fix that crossed the arrival on the wire: the session ended, as a client's app would see it
      streamer.arriving = true;
    } else if (frame.type === 'error') {
      this.counters.errorFrames++;
      this.recorder.record('navigation.error-frame', 0, 0, text.slice(0, 200));
    }
  }

  private retire(streamer: Streamer): void {
    if (streamer.ended) return;
    streamer.ended = true;
    if (!streamer.arriving && this.timer) this.counters.unexpectedCloses++;
    const index = this.streamers.indexOf(streamer);
    if (index >= 0) this.streamers.splice(index, 1);
    this.retired.push(streamer);
    if (this.timer) void this.addSession();
  }

  private sendFix(streamer: Streamer, scheduledAt: number): void {
    if (streamer.arriving || streamer.ended || streamer.socket.readyState !== WebSocket.OPEN) return;
    const [lat, lng] = pointAt(streamer.walk, streamer.meters);
    streamer.meters += 10;
    streamer.sent++;
    streamer.scheduledAt[streamer.sent % RING] = scheduledAt;
    streamer.socket.send(JSON.stringify({ type: 'fix', fix: { lat, lng, speed: 10 } }));
    this.counters.fixesSent++;
  }
}
