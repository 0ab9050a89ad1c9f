import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ApiError } from '../../shared/errors.js';
import { isPublicAddress } from './public-address.js';

/** Longest webhook URL accepted, in characters. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Ports a public webhook may use besides the unprivileged range: https's default and its common alternative. */
const PRIVILEGED_PORTS_ALLOWED = new Set([443, 8443]);
const FIRST_UNPRIVILEGED_PORT = 1024;

/**
 * Name suffixes that only mean something inside a private network (mDNS,
 * cloud-internal resolvers such as metadata.google.internal, home routers).
 * Single-label names are refused too: resolvers complete them with local search domains.
 */
const PRIVATE_NAME_SUFFIXES = ['localhost', 'local', 'internal', 'localdomain', 'home.arpa', 'lan', 'intranet'];

export interface ResolvedAddress {
  address: string;
  /** 4 or 6. */
  family: number;
}

/** Resolves a host name to every address it has (A and AAAA). */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

const resolveWithSystemResolver: HostResolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

export interface WebhookUrlPolicyOptions {
  /**
   * `host` or `host:port` entries (lower case, IPv6 in brackets) that skip the
   * address check and may use plain http: config `WEBHOOK_ALLOWED_HOSTS`. Default none.
   */
  allowedHosts?: readonly string[];
  /** Default: the system resolver (`dns.promises.lookup` with `all: true`). */
  resolveHost?: HostResolver;
}

/** Where one delivery attempt connects: the URL, and the validated address it is pinned to. */
export interface PinnedWebhookTarget {
  url: URL;
  /** Host name without IPv6 brackets (TLS server name and Host header). */
  hostname: string;
  port: number;
  /** Every address the name resolved to, all of them checked; the client tries them in order (happy eyeballs). */
  addresses: readonly PinnedAddress[];
}

export interface PinnedAddress {
  address: string;
  family: 4 | 6;
}

export type WebhookTargetResolution =
  | { ok: true; target: PinnedWebhookTarget }
  /** `retryable`: a resolver failure may pass; a refused address or URL will not. */
  | { ok: false; reason: string; retryable: boolean };

/**
 * The SSRF policy for user-given webhook URLs: a cheap shape check when the URL
 * is accepted, and a full check of every address the name resolves to before
 * each delivery, returning the address the request must connect to (so a DNS
 * answer that changes between check and connect cannot reach a private address).
 */
export class WebhookUrlPolicy {
  private readonly allowedHosts: ReadonlySet<string>;
  private readonly resolveHost: HostResolver;

  constructor(options: WebhookUrlPolicyOptions = {}) {
    this.allowedHosts = new Set((options.allowedHosts ?? []).map((entry) => entry.toLowerCase()));
    this.resolveHost = options.resolveHost ?? resolveWithSystemResolver;
  }

  /** Why `raw` cannot be a webhook URL (a sentence for a 400 message), or undefined when its shape is fine. */
  shapeProblem(raw: string): string | undefined {
    return this.parse(raw).problem;
  }

  /**
   * Validates a webhook URL given at session creation; returns it normalised.
   * Throws ApiError VALIDATION_ERROR (400) naming `field`.
   */
  assertShape(raw: string, field = 'webhookUrl'): string {
    const { url, problem } = this.parse(raw);
    if (problem || !url) {
      throw new ApiError('VALIDATION_ERROR', {
        message: [`${field}: ${problem}`],
        details: { issues: [{ location: 'body', path: field, message: problem, code: 'custom' }] },
      });
    }
    return url.href;
  }

  /** Checks `raw` again and resolves it to the one address a delivery attempt may connect to. */
  async resolve(raw: string): Promise<WebhookTargetResolution> {
    const { url, problem, allowListed } = this.parse(raw);
    if (problem || !url) return { ok: false, reason: problem ?? 'invalid URL', retryable: false };
    const hostname = bareHostname(url);
    const port = portOf(url);
    const literalVersion = isIP(hostname);
    if (literalVersion !== 0) {
      return { ok: true, target: { url, hostname, port, addresses: [{ address: hostname, family: literalVersion === 6 ? 6 : 4 }] } };
    }
    let addresses: readonly ResolvedAddress[];
    try {
      addresses = await this.resolveHost(hostname);
    } catch (error) {
      // Even "not found" is retried: a DNS outage or a record being fixed looks the same from here.
      return { ok: false, reason: `DNS lookup failed (${(error as NodeJS.ErrnoException).code ?? 'error'})`, retryable: true };
    }
    if (addresses.length === 0) return { ok: false, reason: 'DNS lookup returned no address', retryable: true };
    // Every answer must be public: the client would otherwise pick whichever it likes.
    const privateAnswer = allowListed ? undefined : addresses.find((entry) => !isPublicAddress(entry.address));
    // The address itself is not echoed: the log is user-visible, and our resolver may see names the user cannot.
    if (privateAnswer) return { ok: false, reason: `${hostname} resolves to a non-public address`, retryable: false };
    const pinned = addresses.map((entry): PinnedAddress => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
    return { ok: true, target: { url, hostname, port, addresses: pinned } };
  }

  private parse(raw: string): { url?: URL; problem?: string; allowListed?: boolean } {
    if (raw.length > MAX_WEBHOOK_URL_LENGTH) return { problem: `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` };
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return { problem: 'must be an absolute https URL' };
    }
    const allowListed = this.isAllowListed(url);
    if (url.protocol !== 'https:' && !(allowListed && url.protocol === 'http:')) return { problem: 'must be an https URL' };
    if (url.username || url.password) return { problem: 'must not contain credentials' };
    if (allowListed) return { url, allowListed };
    const hostname = bareHostname(url);
    const port = portOf(url);
    if (!PRIVILEGED_PORTS_ALLOWED.has(port) && port < FIRST_UNPRIVILEGED_PORT) {
      return { problem: `must use port 443, 8443 or 1024-65535 (not ${port})` };
    }
    if (isIP(hostname) !== 0) {
      return isPublicAddress(hostname) ? { url } : { problem: 'must not point to a private, loopback or otherwise non-public address' };
    }
    if (isPrivateName(hostname)) return { problem: 'must name a public host' };
    return { url };
  }

  private isAllowListed(url: URL): boolean {
    const host = url.hostname.toLowerCase().replace(/\.$/, '');
    return this.allowedHosts.has(host) || this.allowedHosts.has(`${host}:${portOf(url)}`);
  }
}

function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
}

function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'http:' ? 80 : 443;
}

function isPrivateName(hostname: string): boolean {
  if (!hostname.includes('.')) return true;
  return PRIVATE_NAME_SUFFIXES.some((suffix) => hostname === suffix || hostname.endsWith(`.${suffix}`));
}
