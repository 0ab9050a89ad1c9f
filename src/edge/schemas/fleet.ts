/**
 * The live fleet stream's client messages: auth and ping as on every stream,
 * and each dispatcher event (src/services/optimization/fleet-requests.ts)
 * with an optional correlation id.
 */
import { z } from 'zod';
import { addStopsEvent, cancelStopEvent, completeStopEvent, positionEvent, reoptimizeEvent } from '../../services/optimization/fleet-requests.js';
import { authMessage, messageId, pingMessage } from '../ws/stream-protocol.js';

export const fleetClientMessageSchema = z.discriminatedUnion('type', [
  authMessage,
  pingMessage,
  positionEvent.extend({ id: messageId }),
  addStopsEvent.extend({ id: messageId }),
  cancelStopEvent.extend({ id: messageId }),
  completeStopEvent.extend({ id: messageId }),
  reoptimizeEvent.extend({ id: messageId }),
]);

export type FleetClientMessage = z.infer<typeof fleetClientMessageSchema>;
