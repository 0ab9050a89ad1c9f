import { describe, expect, it } from 'vitest';
import type { FleetPlan } from '../../domain/fleet.js';
import type { PlanFrame } from '../../actors/fleet/fleet-protocol.js';
import { OrderedSender, TOO_SLOW_CLOSE_CODE, type FrameSocket } from './ordered-sender.js';
import { PlanDelivery, type ResyncFrame } from './plan-delivery.js';

function fakeSocket() {
  const sent: Record<string, unknown>[] = [];
  let buffered = 0;
  const closed: number[] = [];
  const socket: FrameSocket = {
    send: (text) => {
      sent.push(JSON.parse(text) as Record<string, unknown>);
      return buffered > 0 ? 0 : 1;
    },
    bufferedAmount: () => buffered,
    end: (code) => closed.push(code),
  };
  return { socket, sent, closed, setBuffered: (bytes: number) => (buffered = bytes) };
}

const plan = (planVersion: number) => ({ planVersion }) as FleetPlan;
const frame = (planVersion: number): PlanFrame => ({ type: 'plan', fleetId: 'f', planVersion, previousPlanVersion: planVersion - 1, plan: plan(planVersion), diff: { added: [], removed: [], moved: [], changedVehicleIds: [] } });
const resync = (planVersion: number, since: number): ResyncFrame => ({ type: 'plan', fleetId: 'f', planVersion, previousPlanVersion: since, plan: plan(planVersion), diff: null });
const versions = (sent: Record<string, unknown>[]) => sent.filter((each) => each.type === 'plan').map((each) => each.planVersion);

describe('PlanDelivery', () => {
  it('holds plans that arrive while the stream starts and sends each newer version once, in order', () => {
    const fake = fakeSocket();
    const delivery = new PlanDelivery(new OrderedSender(fake.socket, { highWaterBytes: 1000, maxQueuedFrames: 10, tooSlowReason: 'slow' }));
    delivery.offer([frame(3), frame(4)]);
    expect(fake.sent).toEqual([]);
    delivery.start({ type: 'ready' }, resync(3, 1), 1);
    expect(fake.sent[0]).toEqual({ type: 'ready' });
    expect(fake.sent[1]).toMatchObject({ planVersion: 3, resync: true, diff: null });
    expect(versions(fake.sent)).toEqual([3, 4]);
    delivery.offer([frame(4), frame(5)]);
    expect(versions(fake.sent)).toEqual([3, 4, 5]);
  });

  it('sends no resync when the client is up to date, and ignores a since ahead of the fleet', () => {
    const fake = fakeSocket();
    const delivery = new PlanDelivery(new OrderedSender(fake.socket, { highWaterBytes: 1000, maxQueuedFrames: 10, tooSlowReason: 'slow' }));
    delivery.start({ type: 'ready' }, resync(2, 9), 9);
    delivery.offer([frame(3)]);
    expect(versions(fake.sent)).toEqual([3]);
  });

  it('queues every version behind a backed-up socket and closes a reader that falls too far behind', () => {
    const fake = fakeSocket();
    const delivery = new PlanDelivery(new OrderedSender(fake.socket, { highWaterBytes: 100, maxQueuedFrames: 2, tooSlowReason: 'slow' }));
    delivery.start({ type: 'ready' }, undefined, 0);
    fake.setBuffered(500);
    delivery.offer([frame(1), frame(2)]);
    fake.setBuffered(0);
    delivery.drain();
    expect(versions(fake.sent)).toEqual([1, 2]);
    fake.setBuffered(500);
    delivery.offer([frame(3), frame(4), frame(5)]);
    expect(fake.closed).toEqual([TOO_SLOW_CLOSE_CODE]);
  });
});
