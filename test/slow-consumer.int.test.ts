/**
 * Slow consumers (issue 33, part 5; docs/reliability.md §5), black-box, both modes: 200 WebSocket clients that
 * never read watch navigation sessions that 10 healthy sockets drive while the sessions are re-planned as fast as
 * the server answers (a route frame and an event to every socket per re-plan). The server must hold a bounded
 * amount for each slow socket and close the ones that fall behind with 4408, its memory must stay bounded, and
 * the healthy sockets must get every event in order with their fix → progress latency printed.
 */
import { describe, expect, it } from 'vitest';
import { describeReport, runSlowConsumers } from '../load-tests/slow-consumers.js';
import { useServer } from './support/server-fixture.js';

const SLOW = Number(process.env.SLOW_CONSUMERS ?? 200);
const HEALTHY = 10;
const SECONDS = Number(process.env.SLOW_CONSUMER_SECONDS ?? 30);
const FIXES_PER_MESSAGE = Number(process.env.SLOW_CONSUMER_FIXES_PER_MESSAGE ?? 2);
/** What the server may hold for one navigation socket (docs/navigation.md, "Backpressure"). */
const MAX_HELD_BYTES = 1024 * 1024;
const PER_SESSION = SLOW / HEALTHY + 1;

const fixture = useServer({
  METRICS_PORT: '0',
  // each session's sockets come from one address of their own (X-Forwarded-For from the test, the proxy)
  TRUSTED_PROXIES: '127.0.0.1',
  WS_MAX_PER_USER: String(PER_SESSION),
  WS_MAX_PER_IP: String(PER_SESSION),
});

describe('slow consumers', () => {
  it('bounds what the server holds for sockets that never read, closes those behind with 4408, and keeps the healthy ones whole', async () => {
    const server = fixture.server;
    const report = await runSlowConsumers(
      { baseUrl: server.baseUrl, port: server.port, pid: server.child.pid!, metricsPort: server.metricsPort, output: server.output },
      { slowSockets: SLOW, healthySockets: HEALTHY, durationSeconds: SECONDS, sampleEveryMs: 2_000, readBackMs: 10_000, fixesPerMessage: FIXES_PER_MESSAGE },
    );
    console.log(describeReport(report).join('\n'));

    // the healthy sockets: every event once, in order, as many as the session has; progress kept flowing. Every fix
    // message answered, so nothing was still queued when the session was read: its eventSeq is the socket's last seq
    expect(report.healthy.unanswered).toBe(0);
    for (const { seqs, eventSeq, unansweredAtRead } of report.healthy.sessions) {
      if (seqs.length !== eventSeq) console.log(JSON.stringify({ eventSeq, unansweredAtRead, seqs }));
      expect(unansweredAtRead).toBe(0);
      expect(eventSeq).toBeGreaterThan(0);
      expect(seqs).toEqual(Array.from({ length: eventSeq }, (_, index) => index + 1));
    }
    expect(report.healthy.refused).toBe(0);

    // a slow socket the server closed held at most the cap (and one frame that pushed it over); a slow socket
    // reading at last finds its frames, then either the stream still open or the close frame 4408 (the end of the
    // connection without one when the server had to give up flushing) — never another code
    const closed = report.slow.closedTooSlow;
    for (const close of closed) expect(close.heldBytes).toBeLessThanOrEqual(MAX_HELD_BYTES + report.routeFrameBytes);
    const ends = report.slow.ends;
    expect(ends.every((end) => end.status === 101 && end.frames > 0)).toBe(true);
    expect(ends.filter((end) => end.closeCode !== undefined && end.closeCode !== 4408)).toEqual([]);
    expect(ends.filter((end) => end.ended).length).toBeLessThanOrEqual(closed.length);

    // the server's memory: over where it was before the slow sockets opened, at most what they may hold
    const growthMb = report.growth.rssMaxMb - report.rssBeforeMb;
    expect(growthMb).toBeLessThan((SLOW * MAX_HELD_BYTES) / 2 ** 20);
  }, 300_000);
});
