/**
 * What one stream socket is sent, and when. Events (and route and status
 * frames) reach the client exactly once, in order: frames already delivered
 * are skipped, and a hole in the event sequence (frames lost between
 * processes, or a resume) is filled from the session's event log before
 * anything newer goes out. Progress frames are the exception that may
 * coalesce: while the socket is backed up only the newest is kept.
 */
import type { NavigationEvent } from '../../domain/navigation-session.js';
import type { FeedFrame } from '../../services/navigation/navigation-sessions.js';
import { OrderedSender, TOO_SLOW_CLOSE_CODE, type FrameSocket, type OrderedSenderOptions } from './ordered-sender.js';
import type { EventFrame, GapFrame } from './stream-protocol.js';
import { ProgressFrameWriter } from './progress-frame-text.js';

export { TOO_SLOW_CLOSE_CODE, type FrameSocket };

export interface DeliveryOptions extends Omit<OrderedSenderOptions, 'tooSlowReason'> {
  /** Told when the stream ends, with how many progress frames were replaced before they could be sent. */
  onClosed?(summary: { coalesced: number }): void;
  /** Events after `since` from the session's log (the catch-up source). */
  eventsAfter(since: number): Promise<NavigationEvent[]>;
}

export class StreamDelivery {
  private lastEventSeq: number;
  private lastFixSeq = 0;
  /** Frames that came while the log was being read; delivered after it. */
  private held: FeedFrame[] | undefined = [];
  private readonly sender: OrderedSender;
  private latestProgress: string | undefined;
  private readonly progressText = new ProgressFrameWriter();
  /** Progress frames replaced by a newer one before they could be sent. */
  coalesced = 0;
  private ended = false;

  constructor(
    private readonly socket: FrameSocket,
    since: number,
    private readonly options: DeliveryOptions,
  ) {
    this.lastEventSeq = since;
    this.sender = new OrderedSender(socket, { ...options, tooSlowReason: 'reader too slow; reconnect with since=<last eventSeq>' });
  }

  private get closed(): boolean {
    return this.sender.closed;
  }

  /** Starts delivery: sends `first` (the ready frame), the events after `since`, then anything held meanwhile. */
  async start(first: object): Promise<void> {
    this.sendNow(JSON.stringify(first));
    await this.catchUp();
  }

  /** Frames from the session (local actor or the bus feed). */
  offer(frames: readonly FeedFrame[]): void {
    if (this.closed) return;
    if (this.held) {
      this.held.push(...frames);
      return;
    }
    // a fix that raised events comes with several frames: one write for all of them, not a syscall each
    if (frames.length > 1 && this.socket.cork) this.socket.cork(() => this.deliverAll(frames));
    else this.deliverAll(frames);
  }

  private deliverAll(frames: readonly FeedFrame[]): void {
    for (let index = 0; index < frames.length; index++) {
      const frame = frames[index]!;
      if (frame.type === 'event' && frame.event.seq > this.lastEventSeq + 1) {
        // a hole: read the log from the last delivered event, hold this frame and the rest meanwhile
        this.held = frames.slice(index);
        void this.catchUp();
        return;
      }
      this.deliver(frame);
    }
  }

  /** Sends what waited for the socket to drain. */
  drain(): void {
    this.sender.drain();
    if (!this.closed && this.sender.hasRoom && this.latestProgress !== undefined) {
      const text = this.latestProgress;
      this.latestProgress = undefined;
      this.socket.send(text);
    }
  }

  /** Sends a frame that is not part of the session feed (acks, errors, pongs). */
  sendControl(frame: object): void {
    if (!this.closed) this.sendNow(JSON.stringify(frame));
  }

  close(): void {
    if (!this.ended) {
      this.ended = true;
      this.options.onClosed?.({ coalesced: this.coalesced });
    }
    this.sender.close();
    this.held = undefined;
  }

  private async catchUp(): Promise<void> {
    while (!this.closed) {
      let events: NavigationEvent[];
      try {
        events = await this.options.eventsAfter(this.lastEventSeq);
      } catch {
        // the session is unreachable right now; the next frame or fix retries
        events = [];
      }
      if (this.closed) return;
      const first = events[0];
      if (first && first.seq > this.lastEventSeq + 1) {
        // older than the retained log: say what is missing instead of pretending
        this.sendNow(JSON.stringify({ type: 'gap', fromSeq: this.lastEventSeq + 1, toSeq: first.seq - 1 } satisfies GapFrame));
        this.lastEventSeq = first.seq - 1;
      }
      for (const event of events) this.deliver({ type: 'event', sessionId: '', event });
      const held = this.held ?? [];
      this.held = undefined;
      // anything held that is still ahead of the log needs another read
      const blocked = held.findIndex((frame) => frame.type === 'event' && frame.event.seq > this.lastEventSeq + 1);
      if (blocked < 0) {
        for (const frame of held) this.deliver(frame);
        return;
      }
      for (const frame of held.slice(0, blocked)) this.deliver(frame);
      this.held = held.slice(blocked);
      if (events.length === 0) {
        // the log has nothing newer yet: deliver what we hold rather than wait forever
        const rest = this.held;
        this.held = undefined;
        for (const frame of rest) this.deliver(frame);
        return;
      }
    }
  }

  private deliver(frame: FeedFrame): void {
    switch (frame.type) {
      case 'event':
        if (frame.event.seq <= this.lastEventSeq) return;
        this.lastEventSeq = frame.event.seq;
        this.sendNow(JSON.stringify({ type: 'event', event: frame.event } satisfies EventFrame));
        return;
      case 'progress': {
        if (frame.fixSeq <= this.lastFixSeq) return;
        this.lastFixSeq = frame.fixSeq;
        const text = this.progressText.text(frame);
        if (!this.sender.hasRoom) {
          if (this.latestProgress !== undefined) this.coalesced++;
          this.latestProgress = text;
          return;
        }
        this.latestProgress = undefined;
        this.socket.send(text);
        return;
      }
      case 'route':
      case 'status':
        // a status frame repeats the ending to every stream; its eventSeq keeps order with events
        this.sendNow(JSON.stringify(frame));
        return;
    }
  }

  private sendNow(text: string): void {
    this.sender.send(text);
  }
}
