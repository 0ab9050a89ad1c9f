import { createClient } from 'redis';
import type { Logger } from '../../shared/logger.js';
import type { CounterStore, WindowHit } from './counter-store.js';

/**
 * Increments every KEYS[i] by ARGV[2i-1] and, when the key was just created,
 * makes it expire at the epoch-ms ARGV[2i]. Running as one script makes the
 * whole batch atomic and costs one round trip.
 */
const INCREMENT_WINDOWS_LUA = `
local results = {}
for i, key in ipairs(KEYS) do
  local by = tonumber(ARGV[2 * i - 1])
  local value = redis.call('INCRBY', key, by)
  if value == by then
    redis.call('PEXPIREAT', key, ARGV[2 * i])
  end
  results[i] = value
end
return results
`;

/** Commands are refused, not queued, while Redis is unreachable: a request must not hang on it. */
const CONNECT_TIMEOUT_MS = 2_000;
const MAX_RECONNECT_DELAY_MS = 2_000;
/** Longest a counter command may take before it counts as failed. */
const COMMAND_TIMEOUT_MS = 1_000;
/** Commands a stalled (open but silent) connection may hold before new ones are refused at once. */
const MAX_QUEUED_COMMANDS = 10_000;

export interface RedisCounterStoreOptions {
  url: string;
  /** Prepended to every key. */
  prefix: string;
  logger: Logger;
}

export class RedisCounterStore implements CounterStore {
  readonly kind = 'redis' as const;
  private readonly client;
  /**
   * The client for the counter script, without node-redis's own per-command timeout: that makes an
   * `AbortSignal.timeout` per command, whose timer fires 5 s later whether or not the command has answered
   * (a DOMException and an abort event each time) — ~2 % of the server's CPU at a few hundred counter batches a
   * second. `withTimeout` bounds the script call instead (1 s), and `commandsQueueMaxLength` bounds what a
   * stalled connection can hold. The price: a script call that timed out for its caller stays queued on a silent
   * but open connection and may still apply later (the caller failed open; the count is then one too high), until
   * the connection drops and the queue is flushed. Counting a request the caller was not refused for errs safe.
   */
  private readonly scriptClient;
  private readonly prefix: string;
  private scriptSha: string | undefined;
  private lastErrorLoggedAtMs = 0;

  constructor(options: RedisCounterStoreOptions) {
    this.prefix = options.prefix;
    this.client = createClient({
      url: options.url,
      disableOfflineQueue: true,
      commandsQueueMaxLength: MAX_QUEUED_COMMANDS,
      socket: {
        connectTimeout: CONNECT_TIMEOUT_MS,
        reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, MAX_RECONNECT_DELAY_MS),
      },
    });
    this.scriptClient = this.client.withCommandOptions({ timeout: 0 });
    this.client.on('error', (error: Error) => {
      // The client retries by itself; log at most every 10 s so an outage does not flood the log.
      const nowMs = Date.now();
      if (nowMs - this.lastErrorLoggedAtMs > 10_000) {
        this.lastErrorLoggedAtMs = nowMs;
        options.logger.warn({ err: error.message }, 'redis unavailable');
      }
    });
  }

  /**
   * Starts connecting and resolves once connected or after `waitMs`; while
   * Redis is away the client keeps reconnecting in the background and commands
   * fail at once.
   */
  async connect(waitMs = CONNECT_TIMEOUT_MS): Promise<boolean> {
    const attempt = this.client.connect().then(
      () => true,
      () => false,
    );
    let timer: NodeJS.Timeout | undefined;
    let onError: (() => void) | undefined;
    // A refused first attempt answers at once rather than after the whole wait.
    const refused = new Promise<boolean>((resolve) => this.client.once('error', (onError = () => resolve(false))));
    const deadline = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), waitMs)));
    const connected = await Promise.race([attempt, refused, deadline]);
    clearTimeout(timer);
    if (onError) this.client.off('error', onError);
    return connected;
  }

  async incrementWindows(hits: readonly WindowHit[]): Promise<number[]> {
    if (hits.length === 0) return [];
    // plain loops: this runs for every batch of every request's and stream message's counters
    const keys = new Array<string>(hits.length);
    const args = new Array<string>(hits.length * 2);
    for (let index = 0; index < hits.length; index++) {
      const hit = hits[index]!;
      keys[index] = this.prefix + hit.key;
      args[2 * index] = String(hit.by ?? 1);
      args[2 * index + 1] = String(Math.ceil(hit.windowEndsAtMs));
    }
    const reply = (await this.withTimeout(this.runScript(keys, args))) as unknown[];
    const counts = new Array<number>(reply.length);
    for (let index = 0; index < reply.length; index++) counts[index] = Number(reply[index]);
    return counts;
  }

  async readCounter(key: string): Promise<number> {
    const value = await this.client.get(this.prefix + key);
    return value === null ? 0 : Number(value);
  }

  async setValue(key: string, value: string, ttlMs: number): Promise<void> {
    await this.client.set(this.prefix + key, value, { expiration: { type: 'PX', value: Math.max(1, Math.ceil(ttlMs)) } });
  }

  async getValue(key: string): Promise<string | null> {
    const value = await this.client.get(this.prefix + key);
    return value === null ? null : String(value);
  }

  async deleteValue(key: string): Promise<void> {
    await this.client.del(this.prefix + key);
  }

  async takeValue(key: string): Promise<string | null> {
    const value = await this.client.getDel(this.prefix + key);
    return value === null ? null : String(value);
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  async close(): Promise<void> {
    // A graceful close waits for replies; a client that is not ready may never get one.
    if (this.client.isReady) await this.client.close().catch(() => this.client.destroy());
    else if (this.client.isOpen) this.client.destroy();
  }

  /** A stalled (not refused) connection must fail the command, so callers' fail-open paths take over. */
  private withTimeout<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`redis command timed out after ${COMMAND_TIMEOUT_MS} ms`)), COMMAND_TIMEOUT_MS);
    });
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  }

  private async runScript(keys: string[], args: string[]): Promise<unknown> {
    if (this.scriptSha) {
      try {
        return await this.scriptClient.evalSha(this.scriptSha, { keys, arguments: args });
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      }
    }
    this.scriptSha = String(await this.scriptClient.scriptLoad(INCREMENT_WINDOWS_LUA));
    return this.scriptClient.evalSha(this.scriptSha, { keys, arguments: args });
  }
}
