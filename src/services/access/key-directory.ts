import type { Bus, BusSubscription } from '../../actors/runtime/bus/bus.js';
import { decodeJson, encodeJson } from '../../actors/runtime/bus/bus.js';
import type { Subjects } from '../../actors/runtime/subjects.js';
import type { Logger } from '../../shared/logger.js';
import type { ApiKeyRecord } from '../../domain/api-key.js';
import type { GateKeyRecord } from '../../store/pg/api-keys.js';
import { API_KEY_PATTERN, hashApiKey } from '../developer/api-key-secrets.js';
import { AddressSet } from './ip-address.js';
import { ReferrerList } from './referrer-matcher.js';

/** A key as the gate needs it, with its restriction lists compiled once. */
export interface KeyGrant {
  id: string;
  /** Undefined only from lookups that know no owners (in-memory test stores). */
  ownerId: string | undefined;
  plan: string;
  scopes: Readonly<Record<string, boolean>>;
  active: boolean;
  /** An operator's hold (PATCH /admin/api-keys/{id}): refused whatever the owner sets `active` to. */
  suspended: boolean;
  /** The owner's account is disabled: its keys stop with its sessions. */
  ownerDisabled: boolean;
  unlimited: boolean;
  quotaPerMinute: number;
  quotaPerDay: number;
  referrers: ReferrerList;
  ips: AddressSet;
}

/**
 * A cached entry lives this long even if an invalidation message is lost, so an
 * operator change reaches every process within about a minute at worst (spec part 1 §3).
 */
export const KEY_CACHE_TTL_MS = 30_000;
/** Bound on cached keys per process. */
const MAX_CACHED_KEYS = 50_000;

/** A key record with its standing; absent standing fields (lookups that know no owners) read as good standing. */
export type KeyLookupRecord = ApiKeyRecord & Partial<Pick<GateKeyRecord, 'ownerId' | 'ownerDisabled' | 'suspended'>>;

export interface KeyLookup {
  findByHash(keyHash: string): Promise<KeyLookupRecord | null>;
  findById(id: string): Promise<KeyLookupRecord | null>;
}

/** What changed: one key, or every key of an owner (an account disabled or enabled). */
export type KeyChange = { keyId: string } | { ownerId: string };

function grantOf(record: KeyLookupRecord): KeyGrant {
  return {
    id: record.id,
    ownerId: record.ownerId,
    plan: record.plan,
    scopes: record.scopes,
    active: record.active,
    suspended: record.suspended === true,
    ownerDisabled: record.ownerDisabled === true,
    unlimited: record.unlimited,
    quotaPerMinute: record.quotaPerMinute,
    quotaPerDay: record.quotaPerDay,
    referrers: new ReferrerList(record.restrictions.referrers),
    ips: new AddressSet(record.restrictions.ips),
  };
}

/**
 * Resolves presented API keys to grants: by SHA-256 of the secret, cached per
 * process, and dropped on every process when a key changes (a message on the
 * bus) so revocation, rotation and operator changes apply at once.
 */
export class KeyDirectory {
  private readonly byHash = new Map<string, { grant: KeyGrant | null; expiresAtMs: number }>();
  private subscription: BusSubscription | undefined;
  /** Bumped by every invalidation: a lookup that started before one must not cache what it read. */
  private generation = 0;

  constructor(
    private readonly lookup: KeyLookup,
    private readonly bus: Bus,
    private readonly subjects: Subjects,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Listens for invalidations from other processes. */
  start(): void {
    this.subscription = this.bus.subscribe(this.subjects.cacheInvalidation('api-keys'), (message) => {
      this.forget(decodeJson<Partial<{ keyId: string; ownerId: string }>>(message.data));
    });
  }

  stop(): void {
    this.subscription?.unsubscribe();
  }

  /** The grant of a presented key, or null for an unknown key. */
  async resolve(plaintext: string): Promise<KeyGrant | null> {
    // Not even shaped like a key: no lookup, and nothing cached for it.
    if (!API_KEY_PATTERN.test(plaintext)) return null;
    const hash = hashApiKey(plaintext);
    const cached = this.byHash.get(hash);
    if (cached && cached.expiresAtMs > this.now()) return cached.grant;
    const startedAt = this.generation;
    const record = await this.lookup.findByHash(hash);
    const grant = record ? grantOf(record) : null;
    if (startedAt !== this.generation) return grant;
    if (this.byHash.size >= MAX_CACHED_KEYS) this.byHash.delete(this.byHash.keys().next().value!);
    this.byHash.set(hash, { grant, expiresAtMs: this.now() + KEY_CACHE_TTL_MS });
    return grant;
  }

  /** The grant of a key by id, uncached: only the developer sandbox asks this way. */
  async resolveById(keyId: string): Promise<KeyGrant | null> {
    const record = await this.lookup.findById(keyId);
    return record ? grantOf(record) : null;
  }

  /**
   * Tells every process (this one included) that a key, or every key of an owner, changed. Resolves once the
   * message has reached the bus server, ahead of the answer to whoever made the change: every process then drops the
   * key before it serves a request that follows that answer. Never rejects.
   */
  async announce(change: KeyChange): Promise<void> {
    this.forget(change);
    try {
      this.bus.publish(this.subjects.cacheInvalidation('api-keys'), encodeJson(change));
      await this.bus.flush();
    } catch (error) {
      // The cache TTL still bounds how long other processes keep the old state.
      this.logger.warn({ err: (error as Error).message, ...change }, 'key invalidation not published');
    }
  }

  private forget(change: Partial<{ keyId: string; ownerId: string }>): void {
    this.generation++;
    for (const [hash, entry] of this.byHash) {
      // Unknown-key entries (grant null) may be a key that now exists: drop them too.
      if (entry.grant === null || entry.grant.id === change.keyId || (change.ownerId !== undefined && entry.grant.ownerId === change.ownerId)) {
        this.byHash.delete(hash);
      }
    }
  }
}
