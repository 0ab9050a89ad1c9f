/**
 * Reads one GBFS document: over http(s) with an SSRF guard (every address the
 * host resolves to must be public, unless the host is allowed by config; the
 * connection uses the checked address), a size bound, a timeout and no
 * redirects; or from a local file.
 */
import { lookup } from 'node:dns/promises';
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from '../webhooks/public-address.js';

export const MAX_GBFS_BYTES = 5 * 1024 * 1024;
export const GBFS_TIMEOUT_MS = 10_000;

export class GbfsFetchError extends Error {}

export interface GbfsFetchOptions {
  /** `host` or `host:port` entries that may be private and plain http. */
  allowedHosts: readonly string[];
}

export async function readGbfsDocument(location: string, options: GbfsFetchOptions): Promise<unknown> {
  if (!/^https?:\/\//i.test(location)) {
    const info = await stat(location).catch(() => undefined);
    if (!info?.isFile()) throw new GbfsFetchError(`${location}: no such file`);
    if (info.size > MAX_GBFS_BYTES) throw new GbfsFetchError(`${location}: larger than ${MAX_GBFS_BYTES} bytes`);
    return parseJson(location, await readFile(location, 'utf8'));
  }
  const url = new URL(location);
  const hostPort = `${url.hostname.toLowerCase()}${url.port ? `:${url.port}` : ''}`;
  const allowed = options.allowedHosts.includes(hostPort) || options.allowedHosts.includes(url.hostname.toLowerCase());
  if (url.protocol !== 'https:' && !allowed) throw new GbfsFetchError(`${location}: only https feeds (or a host in GBFS_ALLOWED_HOSTS)`);
  // an address literal never reaches the lookup below
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && !allowed && !isPublicAddress(literal)) throw new GbfsFetchError(`${url.hostname} is a private address`);
  const guardedLookup: LookupFunction = (hostname, lookupOptions, callback) => {
    lookup(hostname, { all: true, verbatim: true }).then(
      (addresses) => {
        const usable = allowed ? addresses : addresses.filter((entry) => isPublicAddress(entry.address));
        if (!usable.length || usable.length !== addresses.length) {
          callback(new GbfsFetchError(`${hostname} resolves to a private address`) as NodeJS.ErrnoException, '', 4);
          return;
        }
        if ((lookupOptions as { all?: boolean }).all) (callback as unknown as (e: null, a: typeof usable) => void)(null, usable);
        else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 4),
    );
  };
  const body = await new Promise<string>((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.get(url, { lookup: guardedLookup, timeout: GBFS_TIMEOUT_MS, headers: { accept: 'application/json' } }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(new GbfsFetchError(`${location}: HTTP ${response.statusCode}`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_GBFS_BYTES) {
          request.destroy(new GbfsFetchError(`${location}: larger than ${MAX_GBFS_BYTES} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new GbfsFetchError(`${location}: no answer within ${GBFS_TIMEOUT_MS} ms`)));
    request.on('error', reject);
  });
  return parseJson(location, body);
}

function parseJson(location: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new GbfsFetchError(`${location}: not JSON`);
  }
}
