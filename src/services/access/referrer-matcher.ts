/**
 * Website restrictions (spec part 1 §4.1): entries are normalised `host[:port]`
 * or `*.domain[:port]` (see developer/key-restrictions.ts); the request's site
 * comes from Origin, else Referer.
 */
export interface RequestSite {
  host: string;
  port: number;
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** The site a browser request comes from, or undefined when neither header names one. */
export function requestSite(origin: string | undefined, referer: string | undefined): RequestSite | undefined {
  const source = origin && origin !== 'null' ? origin : referer;
  if (!source) return undefined;
  try {
    const url = new URL(source);
    const port = url.port ? Number(url.port) : DEFAULT_PORTS[url.protocol];
    if (!url.hostname || port === undefined) return undefined;
    return { host: url.hostname.toLowerCase(), port };
  } catch {
    return undefined;
  }
}

interface CompiledEntry {
  wildcard: boolean;
  host: string;
  port: number | undefined;
}

function compile(entry: string): CompiledEntry {
  const bracketed = /^(\[[^\]]+\])(?::(\d+))?$/.exec(entry);
  let host = entry;
  let port: number | undefined;
  if (bracketed) {
    host = bracketed[1]!;
    port = bracketed[2] ? Number(bracketed[2]) : undefined;
  } else {
    const colon = entry.lastIndexOf(':');
    if (colon >= 0) {
      host = entry.slice(0, colon);
      port = Number(entry.slice(colon + 1));
    }
  }
  const wildcard = host.startsWith('*.');
  return { wildcard, host: wildcard ? host.slice(1) : host, port };
}

/** A compiled referrer list. */
export class ReferrerList {
  private readonly entries: CompiledEntry[];

  constructor(entries: readonly string[]) {
    this.entries = entries.map(compile);
  }

  get isEmpty(): boolean {
    return this.entries.length === 0;
  }

  /** `*.example.com` covers every subdomain (any depth) but not example.com itself; no port = any port. */
  allows(site: RequestSite | undefined): boolean {
    if (this.entries.length === 0) return true;
    if (!site) return false;
    return this.entries.some((entry) => {
      if (entry.port !== undefined && entry.port !== site.port) return false;
      // entry.host keeps the leading dot for wildcards: ".example.com".
      return entry.wildcard ? site.host.endsWith(entry.host) && site.host.length > entry.host.length : site.host === entry.host;
    });
  }
}
