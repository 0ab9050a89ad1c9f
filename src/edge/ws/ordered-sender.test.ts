import { describe, expect, it } from 'vitest';
import { OrderedSender, TOO_SLOW_CLOSE_CODE, type FrameSocket, type TooSlowReport } from './ordered-sender.js';

function fakeSocket() {
  const sent: string[] = [];
  let buffered = 0;
  const closed: number[] = [];
  const socket: FrameSocket = {
    send: (text) => {
      sent.push(text);
      buffered += text.length;
      return 0;
    },
    bufferedAmount: () => buffered,
    end: (code) => closed.push(code),
  };
  return { socket, sent, closed, drainAll: () => (buffered = 0) };
}

describe('OrderedSender', () => {
  it('closes a reader with 4408 once the bytes held for it (buffer and queue) pass the cap, however few the frames', () => {
    const fake = fakeSocket();
    const reports: TooSlowReport[] = [];
    const sender = new OrderedSender(fake.socket, { highWaterBytes: 1_000, maxQueuedFrames: 1_000, maxHeldBytes: 5_000, tooSlowReason: 'slow', onTooSlow: (report) => reports.push(report) });
    const frame = 'x'.repeat(1_500);
    sender.send(frame); // straight out: 1 500 buffered, above the high-water mark
    sender.send(frame); // queued: 3 000 held
    sender.send(frame); // queued: 4 500 held
    expect(fake.closed).toEqual([]);
    sender.send(frame); // 6 000 held: too slow
    expect(fake.closed).toEqual([TOO_SLOW_CLOSE_CODE]);
    expect(reports).toEqual([{ bufferedBytes: 1_500, queuedBytes: 4_500, queuedFrames: 3, heldBytes: 6_000 }]);
    expect(sender.closed).toBe(true);
    sender.send(frame);
    expect(fake.sent).toHaveLength(1);
  });

  it('counts bytes out of the queue as it drains', () => {
    const fake = fakeSocket();
    const sender = new OrderedSender(fake.socket, { highWaterBytes: 1_000, maxQueuedFrames: 1_000, maxHeldBytes: 5_000, tooSlowReason: 'slow' });
    const frame = 'x'.repeat(1_500);
    // many frames in all, but never more than the cap held at once: the reader keeps up
    for (let round = 0; round < 20; round++) {
      sender.send(frame);
      sender.send(frame);
      fake.drainAll();
      sender.drain();
      fake.drainAll();
    }
    expect(fake.closed).toEqual([]);
    expect(fake.sent).toHaveLength(40);
  });
});
