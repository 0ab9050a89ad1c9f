/**
 * In-order, never-dropping sends on one socket with backpressure: while the
 * socket's buffer is above the high-water mark, frames wait in a queue that
 * `drain()` (uWS's drain event) empties; a reader so slow that the queue
 * outgrows its bounds (frames, or bytes held for the socket) is closed, so it
 * reconnects and resumes with since.
 */

/** The socket as delivery needs it (uWS in production, a fake in the tests). */
export interface FrameSocket {
  /** 1 sent, 0 sent but buffered (backpressure), 2 dropped. */
  send(text: string): number;
  bufferedAmount(): number;
  /** Closes the socket with a code and a short reason. */
  end(code: number, reason: string): void;
  /** Runs `work`, packing the frames it sends into one write (uWS cork); without it each send is its own write. */
  cork?(work: () => void): void;
}

export const TOO_SLOW_CLOSE_CODE = 4408;

/** What a too-slow socket was holding when it was closed (for the log line). */
export interface TooSlowReport {
  /** Bytes in uWS's buffer for the socket (written, not yet taken by the kernel). */
  bufferedBytes: number;
  /** Bytes of the frames waiting in the queue. */
  queuedBytes: number;
  queuedFrames: number;
  /** Both together: what the server held for the socket. */
  heldBytes: number;
}

export interface OrderedSenderOptions {
  /** Buffered bytes above which frames wait in the queue. */
  highWaterBytes: number;
  /** Frames waiting beyond this: the reader is too slow; close so it resumes. */
  maxQueuedFrames: number;
  /**
   * Bytes held for the socket (uWS's buffer plus the queue) beyond this: the reader is too slow. Counts bytes,
   * not frames, so a few large frames (routes, plans) cannot pile up megabytes per socket.
   */
  maxHeldBytes?: number;
  /** The close reason a too-slow reader gets (tells it how to resume). */
  tooSlowReason: string;
  /** Told when a reader is closed as too slow (the stream logs it). */
  onTooSlow?(report: TooSlowReport): void;
}

export class OrderedSender {
  private readonly queue: string[] = [];
  private queuedBytes = 0;
  private closedFlag = false;

  constructor(
    readonly socket: FrameSocket,
    private readonly options: OrderedSenderOptions,
  ) {}

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Nothing waits and the socket has room: a frame sent now goes straight out. */
  get hasRoom(): boolean {
    return this.queue.length === 0 && this.socket.bufferedAmount() < this.options.highWaterBytes;
  }

  /** Sends in order; behind a backed-up socket the frame waits in the queue. */
  send(text: string): void {
    if (this.closedFlag) return;
    if (this.hasRoom && this.socket.send(text) !== 2) return;
    this.queue.push(text);
    // JSON frames are ASCII but for names and instructions: a string's length is close to its UTF-8 bytes
    this.queuedBytes += text.length;
    const bufferedBytes = this.socket.bufferedAmount();
    const heldBytes = bufferedBytes + this.queuedBytes;
    if (this.queue.length > this.options.maxQueuedFrames || heldBytes > (this.options.maxHeldBytes ?? Infinity)) {
      const report: TooSlowReport = { bufferedBytes, queuedBytes: this.queuedBytes, queuedFrames: this.queue.length, heldBytes };
      this.close();
      this.socket.end(TOO_SLOW_CLOSE_CODE, this.options.tooSlowReason);
      this.options.onTooSlow?.(report);
    }
  }

  /** Sends what waited for the socket to drain. */
  drain(): void {
    while (!this.closedFlag && this.queue.length > 0 && this.socket.bufferedAmount() < this.options.highWaterBytes) {
      const text = this.queue.shift()!;
      if (this.socket.send(text) === 2) {
        this.queue.unshift(text);
        return;
      }
      this.queuedBytes -= text.length;
    }
  }

  close(): void {
    this.closedFlag = true;
    this.queue.length = 0;
    this.queuedBytes = 0;
  }
}
