/**
 * In-order, never-dropping sends on one socket with backpressure: while the
 * socket's buffer is above the high-water mark, frames wait in a queue that
 * `drain()` (uWS's drain event) empties; a reader so slow that the queue
 * outgrows its bound is closed, so it reconnects and resumes with since.
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

export class OrderedSender {
  private readonly queue: string[] = [];
  private closedFlag = false;

  constructor(
    readonly socket: FrameSocket,
    private readonly options: {
      /** Buffered bytes above which frames wait in the queue. */
      highWaterBytes: number;
      /** Frames waiting beyond this: the reader is too slow; close so it resumes. */
      maxQueuedFrames: number;
      /** The close reason a too-slow reader gets (tells it how to resume). */
      tooSlowReason: string;
    },
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
    if (this.queue.length > this.options.maxQueuedFrames) {
      this.close();
      this.socket.end(TOO_SLOW_CLOSE_CODE, this.options.tooSlowReason);
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
    }
  }

  close(): void {
    this.closedFlag = true;
    this.queue.length = 0;
  }
}
