/**
 * What the pages share: the API client, the API key (kept in this browser's localStorage, set by the
 * developer page or pasted; never part of the bundle), the developer's session token (sessionStorage)
 * and the last quota headers seen.
 */
import { createLocationClient, type QuotaSnapshot } from '../../clients/typescript/src/index.js';

const KEY_STORAGE = 'svc.apiKey';
const TOKEN_STORAGE = 'svc.accessToken';
const EMAIL_STORAGE = 'svc.email';

function read(storage: Storage, name: string): string | undefined {
  try {
    return storage.getItem(name) ?? undefined;
  } catch {
    return undefined;
  }
}

function write(storage: Storage, name: string, value: string | undefined): void {
  try {
    if (value) storage.setItem(name, value);
    else storage.removeItem(name);
  } catch {
    /* private mode: kept in memory only */
  }
}

let apiKey = read(localStorage, KEY_STORAGE);
let quota: QuotaSnapshot | undefined;
const quotaListeners = new Set<(quota: QuotaSnapshot) => void>();

export const client = createLocationClient({
  baseUrl: location.origin,
  ...(apiKey ? { apiKey } : {}),
  onQuota: (snapshot) => {
    quota = snapshot;
    for (const listener of quotaListeners) listener(snapshot);
  },
});

export function currentApiKey(): string | undefined {
  return apiKey;
}

export function setApiKey(key: string | undefined): void {
  apiKey = key?.trim() || undefined;
  write(localStorage, KEY_STORAGE, apiKey);
  client.setCredentials({ apiKey });
}

export function lastQuota(): QuotaSnapshot | undefined {
  return quota;
}

export function onQuota(listener: (quota: QuotaSnapshot) => void): () => void {
  quotaListeners.add(listener);
  return () => quotaListeners.delete(listener);
}

/** The developer page's bearer session: sessionStorage, gone when the tab closes. */
export const developerSession = {
  get token(): string | undefined {
    return read(sessionStorage, TOKEN_STORAGE);
  },
  get email(): string | undefined {
    return read(sessionStorage, EMAIL_STORAGE);
  },
  set(token: string | undefined, email?: string): void {
    write(sessionStorage, TOKEN_STORAGE, token);
    write(sessionStorage, EMAIL_STORAGE, email);
  },
};

/** A readable message from an API error body or a thrown error. */
export function errorText(error: unknown): string {
  if (error && typeof error === 'object' && 'message' in error) {
    const message = (error as { message: unknown }).message;
    const code = (error as { code?: unknown }).code;
    return `${Array.isArray(message) ? message.join('; ') : String(message)}${typeof code === 'string' ? ` (${code})` : ''}`;
  }
  return String(error);
}
