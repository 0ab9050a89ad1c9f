/**
 * The shape of the endpoint table (its rows are in endpoint-access.ts) and the one lookup the
 * edge makes when it binds a route to its row.
 */

import type { Scope } from '../developer/catalog.js';
import type { BillingClass } from '../limits/request-weights.js';

export type { BillingClass, Scope };

/** Who may call an endpoint (spec part 1 §4.3, §5). */
export type AccessClass =
  | 'open' // no credentials needed; an API key, if presented, is still held to its scopes and quotas
  | 'key-or-bearer' // a developer API key or a signed-in user's bearer token; anonymous gets 401
  | 'bearer' // a signed-in user's bearer token only (developer portal, account, user data)
  | 'admin'; // bearer token of a user with role admin or super_admin

export type EndpointMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface EndpointRow {
  method: EndpointMethod;
  /** OpenAPI-style path with `{param}` segments, relative to /api/v1 unless `mount` is `root`: /places/{slug} */
  path: string;
  /** Served at the root, outside /api/v1 and the access gate (operations endpoints). */
  mount?: 'root';
  access: AccessClass;
  /** Scopes a key must grant, all of them (empty for endpoints that need no scope). */
  scopes: readonly Scope[];
  /** What one request costs on the monthly bill (spec part 1 §8 rule 1; docs/key-enforcement.md). */
  billing: BillingClass;
  /** Tighter per-IP throttle per minute where the spec names one (part 1 §8 rule 4), else omitted. */
  throttlePerMinute?: number;
  /** Never throttled (map-tile layers fetched in bursts, part 1 §8 rule 4), else omitted. */
  neverThrottled?: boolean;
  /** Unlimited keys skip this endpoint's tighter throttle too (part 1 §8, "Unlimited keys"), else omitted. */
  throttleLiftedForUnlimited?: boolean;
  /** Spec section the row comes from, e.g. 'part2 §4.2', or 'designed (…)' for the product's own. */
  source: string;
  /** Named by the spec but not served yet. A route for it refuses to start until the mark is dropped. */
  planned?: true;
}

/** Rows keyed by method, mount and path; two rows for one endpoint are refused. */
export class EndpointTable {
  private readonly byEndpoint = new Map<string, EndpointRow>();

  constructor(readonly rows: readonly EndpointRow[]) {
    for (const row of rows) {
      const key = endpointKey(row.method, row.mount, row.path);
      if (this.byEndpoint.has(key)) throw new Error(`The endpoint table names ${key} twice`);
      this.byEndpoint.set(key, row);
    }
  }

  /** The row of an endpoint; `mount` as a route declares it (absent or 'api': under /api/v1). */
  find(method: string, mount: 'api' | 'root' | undefined, path: string): EndpointRow | undefined {
    return this.byEndpoint.get(endpointKey(method, mount, path));
  }
}

function endpointKey(method: string, mount: 'api' | 'root' | undefined, path: string): string {
  return `${method} ${mount === 'root' ? path : `/api/v1${path}`}`;
}
