import { describe, expect, it } from 'vitest';
import { mountedPath, type RouteDefinition } from '../src/edge/route.js';
import { addressingRoutes } from '../src/edge/routes/addressing.js';
import { adminRoutes } from '../src/edge/routes/admin.js';
import { geocodingRoutes } from '../src/edge/routes/geocoding.js';
import { authProviderRoutes } from '../src/edge/routes/auth-providers.js';
import { authRoutes } from '../src/edge/routes/auth.js';
import { developerRoutes } from '../src/edge/routes/developer.js';
import { developerSandboxRoutes } from '../src/edge/routes/developer-sandbox.js';
import { historyRoutes } from '../src/edge/routes/history.js';
import { mapDataRoutes } from '../src/edge/routes/map-data.js';
import { liveShareRoutes } from '../src/edge/routes/live-shares.js';
import { meRoutes } from '../src/edge/routes/me.js';
import { savedPlacesRoutes } from '../src/edge/routes/saved-places.js';
import { routingAnalysisRoutes } from '../src/edge/routes/routing-analysis.js';
import { routingRoutes } from '../src/edge/routes/routing.js';
import { navigationRoutes } from '../src/edge/routes/navigation.js';
import { navigationSessionRoutes, navigationStreamRoute } from '../src/edge/routes/navigation-sessions.js';
import { fleetRoutes, fleetStreamRoute } from '../src/edge/routes/fleets.js';
import { DESIGNED_ENDPOINT_ACCESS, ENDPOINT_ACCESS } from '../src/services/access/endpoint-access.js';

// Route metadata only: the handlers are never called, so the services can be stand-ins.
const none = {} as never;
const apiRoutes: RouteDefinition[] = [
  ...authRoutes(none, none),
  ...authProviderRoutes({ signIn: none, publicBaseUrl: undefined, captchaSiteKey: undefined }),
  ...developerRoutes(none),
  ...developerSandboxRoutes(none, none),
  ...meRoutes(none),
  ...savedPlacesRoutes(none, none),
  ...historyRoutes(none),
  ...liveShareRoutes(none),
  ...adminRoutes(none),
  ...addressingRoutes(none),
  ...geocodingRoutes(none),
  ...mapDataRoutes(none),
  ...routingAnalysisRoutes(none),
  ...routingRoutes(none),
  ...navigationRoutes({ planner: none, entrances: none }),
  ...navigationSessionRoutes(none),
  navigationStreamRoute(),
  ...fleetRoutes(none),
  fleetStreamRoute(),
].filter((route) => route.mount !== 'root');

describe('access table', () => {
  const table = [...ENDPOINT_ACCESS, ...DESIGNED_ENDPOINT_ACCESS];
  const rowFor = (route: RouteDefinition) => table.find((row) => row.method === route.method && row.path === route.path);

  it('has a row for every registered API route, with the same access class and scopes', () => {
    for (const route of apiRoutes) {
      const row = rowFor(route);
      expect(row, `${route.method} ${mountedPath(route)} has no row in the access table`).toBeDefined();
      expect({ route: `${route.method} ${route.path}`, access: route.access }).toEqual({ route: `${route.method} ${route.path}`, access: row!.access });
      expect([...(route.scopes ?? [])].sort()).toEqual([...row!.scopes].sort());
    }
  });

  it('names each endpoint once', () => {
    const keys = table.map((row) => `${row.method} ${row.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('lifts only the POST /search/events throttle for unlimited keys', () => {
    expect(table.filter((row) => row.throttleLiftedForUnlimited).map((row) => `${row.method} ${row.path}`)).toEqual(['POST /search/events']);
  });

  it('requires both routing and traffic for POST /traffic/route', () => {
    expect(table.find((row) => row.method === 'POST' && row.path === '/traffic/route')?.scopes).toEqual(['routing', 'traffic']);
  });
});
