/**
 * The live fleet stream (`/api/v1/optimize/fleets/{fleetId}/stream`): every new plan with its diff; send
 * positions, new stops, cancellations, completions. Resumes from the last plan version it delivered.
 */
import type { Fleet, FleetEventMessage, FleetFrame } from './frames.js';
import { Listeners, StreamSocket, type BackoffOptions, type Credentials, type StreamState, type WebSocketFactory } from './stream-socket.js';

export interface FleetStreamOptions {
  since?: number;
  webSocket?: WebSocketFactory;
  backoff?: BackoffOptions;
}

export interface FleetStreamEvents extends Record<string, unknown> {
  frame: FleetFrame;
  ready: Fleet;
  plan: Extract<FleetFrame, { type: 'plan' }>;
  ack: Extract<FleetFrame, { type: 'ack' }>;
  error: Extract<FleetFrame, { type: 'error' }>;
  state: { state: StreamState; code?: number; reason?: string; attempt?: number; delayMs?: number };
}

export class FleetStream extends Listeners<FleetStreamEvents> {
  private planVersion: number;
  private readonly socket: StreamSocket;
  private messageCount = 0;

  constructor(wsOrigin: string, readonly fleetId: string, credentials: () => Credentials, options: FleetStreamOptions = {}) {
    super();
    this.planVersion = options.since ?? 0;
    this.socket = new StreamSocket({
      url: () => `${wsOrigin}/api/v1/optimize/fleets/${encodeURIComponent(fleetId)}/stream?since=${this.planVersion}`,
      credentials,
      webSocket: options.webSocket,
      backoff: options.backoff,
      onFrame: (frame) => this.deliver(frame as FleetFrame),
      onState: (state, detail) => this.emit('state', { state, ...detail }),
    });
  }

  get lastPlanVersion(): number {
    return this.planVersion;
  }

  /** Sends one fleet event; the server answers an `ack` with the id returned here. */
  send(event: FleetEventMessage): string {
    const id = `m${++this.messageCount}`;
    this.socket.send({ ...event, id });
    return id;
  }

  dropConnection(): void {
    this.socket.dropConnection();
  }

  close(): void {
    this.socket.close();
  }

  private deliver(frame: FleetFrame): void {
    if (frame.type === 'plan') {
      if (frame.planVersion <= this.planVersion && !frame.resync) return;
      this.planVersion = frame.planVersion;
    }
    this.emit('frame', frame);
    if (frame.type === 'ready') this.emit('ready', frame.fleet);
    else if (frame.type === 'plan') this.emit('plan', frame);
    else if (frame.type === 'ack') this.emit('ack', frame);
    else if (frame.type === 'error') this.emit('error', frame);
  }
}
