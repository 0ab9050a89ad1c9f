import { describe, expect, it } from 'vitest';
import type { NavigationEvent } from '../../domain/navigation-session.js';
import type { FeedFrame } from '../../actors/navigation-session/session-protocol.js';
import { StreamDelivery, TOO_SLOW_CLOSE_CODE, type FrameSocket } from './stream-delivery.js';

function fakeSocket() {
  const sent: Record<string, unknown>[] = [];
  let buffered = 0;
  const closed: { code: number; reason: string }[] = [];
  const socket: FrameSocket = {
    send: (text) => {
      sent.push(JSON.parse(text) as Record<string, unknown>);
      return buffered > 0 ? 0 : 1;
    },
    bufferedAmount: () => buffered,
    end: (code, reason) => closed.push({ code, reason }),
  };
  return { socket, sent, closed, setBuffered: (bytes: number) => (buffered = bytes) };
}

const event = (seq: number): NavigationEvent => ({ seq, type: 'maneuver_completed', at: '2026-01-01T00:00:00.000Z', data: { maneuverIndex: seq } });
const eventFrame = (seq: number): FeedFrame => ({ type: 'event', sessionId: 's', event: event(seq) });
const progressFrame = (fixSeq: number): FeedFrame => ({
  type: 'progress',
  fixSeq,
  sessionId: 's',
  status: 'active',
  maneuverIndex: 0,
  eventSeq: 0,
  etaSeconds: 1,
  distanceRemainingMeters: 1,
  durationRemainingSeconds: 1,
  progress: null,
});
const seqs = (sent: Record<string, unknown>[]) => sent.filter((frame) => frame.type === 'event').map((frame) => (frame.event as NavigationEvent).seq);

describe('StreamDelivery', () => {
  it('sends the ready frame, the log after since, then frames held meanwhile, each event once', async () => {
    const { socket, sent } = fakeSocket();
    let release: (events: NavigationEvent[]) => void = () => {};
    const delivery = new StreamDelivery(socket, 2, { highWaterBytes: 1000, maxQueuedFrames: 100, eventsAfter: () => new Promise((resolve) => (release = resolve)) });
    const started = delivery.start({ type: 'ready' });
    // live frames arrive while the log is read: some overlap with it
    delivery.offer([eventFrame(4), eventFrame(5)]);
    release([event(3), event(4)]);
    await started;
    expect(sent[0]).toEqual({ type: 'ready' });
    expect(seqs(sent)).toEqual([3, 4, 5]);
    delivery.offer([eventFrame(5), eventFrame(6)]);
    expect(seqs(sent)).toEqual([3, 4, 5, 6]);
  });

  it('fills a hole in the sequence from the log before sending newer events', async () => {
    const { socket, sent } = fakeSocket();
    const log = [1, 2, 3, 4].map(event);
    const delivery = new StreamDelivery(socket, 0, { highWaterBytes: 1000, maxQueuedFrames: 100, eventsAfter: async (since) => log.filter((entry) => entry.seq > since) });
    await delivery.start({ type: 'ready' });
    expect(seqs(sent)).toEqual([1, 2, 3, 4]);
    log.push(event(5), event(6), event(7));
    // 5 and 6 went missing on the way; 7 arrives
    delivery.offer([eventFrame(7)]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seqs(sent)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('reports a gap when since is older than the retained log', async () => {
    const { socket, sent } = fakeSocket();
    const delivery = new StreamDelivery(socket, 3, { highWaterBytes: 1000, maxQueuedFrames: 100, eventsAfter: async () => [event(60), event(61)] });
    await delivery.start({ type: 'ready' });
    expect(sent[1]).toEqual({ type: 'gap', fromSeq: 4, toSeq: 59 });
    expect(seqs(sent)).toEqual([60, 61]);
  });

  it('coalesces progress frames behind a backed-up socket but queues every event, in order', async () => {
    const fake = fakeSocket();
    const delivery = new StreamDelivery(fake.socket, 0, { highWaterBytes: 100, maxQueuedFrames: 100, eventsAfter: async () => [] });
    await delivery.start({ type: 'ready' });
    fake.setBuffered(500);
    delivery.offer([progressFrame(1), eventFrame(1), progressFrame(2), progressFrame(3), eventFrame(2), progressFrame(4)]);
    expect(fake.sent).toHaveLength(1);
    fake.setBuffered(0);
    delivery.drain();
    expect(seqs(fake.sent)).toEqual([1, 2]);
    const progress = fake.sent.filter((frame) => frame.type === 'progress').map((frame) => frame.fixSeq);
    expect(progress).toEqual([4]);
    expect(delivery.coalesced).toBe(3);
  });

  it('closes a reader that falls too far behind, so it resumes with since', async () => {
    const fake = fakeSocket();
    const delivery = new StreamDelivery(fake.socket, 0, { highWaterBytes: 100, maxQueuedFrames: 3, eventsAfter: async () => [] });
    await delivery.start({ type: 'ready' });
    fake.setBuffered(500);
    delivery.offer([1, 2, 3, 4].map(eventFrame));
    expect(fake.closed).toEqual([{ code: TOO_SLOW_CLOSE_CODE, reason: expect.stringContaining('since') }]);
  });
});
