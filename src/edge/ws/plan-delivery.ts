/**
 * What one fleet stream socket is sent: every plan version once, in order.
 * Frames arriving while the stream starts (the fleet is being read) are held
 * and sent after it, skipping versions the start already covered. Never
 * coalesces: a dispatcher sees every version (a reader too slow for that is
 * closed and resumes with since).
 */
import type { PlanFrame } from '../../services/optimization/live-fleets.js';
import type { OrderedSender } from './ordered-sender.js';

/** The current plan sent to a client that is behind: no diff (the versions in between are not kept). */
export type ResyncFrame = Omit<PlanFrame, 'diff'> & { diff: null };

export class PlanDelivery {
  private lastPlanVersion = 0;
  private held: PlanFrame[] | undefined = [];

  constructor(private readonly sender: OrderedSender) {}

  /** Sends the ready frame and, when the client is behind, the current plan; then what was held meanwhile. */
  start(ready: Record<string, unknown>, current: ResyncFrame | undefined, since: number): void {
    this.sender.send(JSON.stringify(ready));
    // the ready frame shows the current plan: from here on, every newer version (whatever since claimed)
    this.lastPlanVersion = current?.planVersion ?? 0;
    if (current && current.planVersion > since) this.sender.send(JSON.stringify({ ...current, resync: true }));
    const held = this.held ?? [];
    this.held = undefined;
    this.offer(held);
  }

  offer(frames: readonly PlanFrame[]): void {
    if (this.held) {
      this.held.push(...frames);
      return;
    }
    for (const frame of frames) {
      if (frame.planVersion <= this.lastPlanVersion) continue;
      this.lastPlanVersion = frame.planVersion;
      this.sender.send(JSON.stringify(frame));
    }
  }

  /** Acks, errors, pongs: in order with the plans. */
  sendControl(frame: object): void {
    this.sender.send(JSON.stringify(frame));
  }

  drain(): void {
    this.sender.drain();
  }

  close(): void {
    this.sender.close();
    this.held = undefined;
  }
}
