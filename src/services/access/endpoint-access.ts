/**
 * Every endpoint: the ones the spec names (parts 1 to 3, endpoint tables and prose), the ones the
 * product designed, and the operations endpoints at the root. One row per endpoint says who may call
 * it, which key scopes it needs, how it is throttled and how it is billed. It is the single source:
 * route definitions carry none of this; the edge binds each route to its row when it registers it
 * (edge/route-binding.ts), and a route without a row refuses to start. The guards, the OpenAPI
 * document and usage billing read the bound row. Access rules are scattered across section headings,
 * table columns and prose in the spec, so they are settled once here, where they can be reviewed
 * against the spec side by side. test/endpoint-table.int.test.ts compares the table with the routes the
 * application serves: a served route without a row, a row whose route is gone and a `planned` mark on a
 * served endpoint all fail the build. Rows follow spec order so a reader can walk the spec and the table
 * together; an endpoint named in several places appears once, at the section that defines it, with
 * every naming section listed in `source`.
 */

import { EndpointTable, type EndpointRow } from './endpoint-table.js';

export type { AccessClass, BillingClass, EndpointMethod, EndpointRow, Scope } from './endpoint-table.js';

export const ENDPOINT_ROWS: readonly EndpointRow[] = [
  // ───────────────────────────── Part 1: access, accounts ─────────────────────────────

  // §4.1 Developer portal: a user session token, never an API key, so no scopes.
  { method: 'POST', path: '/developer/enroll', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.1, part1 §5' },
  { method: 'GET', path: '/developer/access', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.1, part1 §5' },
  { method: 'GET', path: '/developer/overview', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.1' },
  { method: 'GET', path: '/developer/scopes', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.1, part1 §2.2' },
  { method: 'GET', path: '/developer/summary', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.1' },
  { method: 'GET', path: '/developer/organizations', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.1' },
  { method: 'POST', path: '/developer/organizations', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.1' },
  { method: 'PATCH', path: '/developer/organizations/{id}', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.1' },
  { method: 'DELETE', path: '/developer/organizations/{id}', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.1' },
  { method: 'GET', path: '/developer/projects', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.1' },
  { method: 'POST', path: '/developer/organizations/{id}/projects', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.1' },
  { method: 'POST', path: '/developer/projects', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.1' },
  { method: 'PATCH', path: '/developer/projects/{id}', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.1' },
  { method: 'DELETE', path: '/developer/projects/{id}', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.1' },
  { method: 'GET', path: '/developer/api-keys', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.1' },
  { method: 'POST', path: '/developer/api-keys', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.1' },
  { method: 'GET', path: '/developer/api-keys/{id}/usage', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.1' },
  { method: 'GET', path: '/developer/api-keys/{id}/usage/monthly', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.1' },
  { method: 'PATCH', path: '/developer/api-keys/{id}', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.1, part1 §3' },
  { method: 'POST', path: '/developer/api-keys/{id}/rotate', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.1, part1 §3' },
  { method: 'DELETE', path: '/developer/api-keys/{id}', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.1, part1 §3' },
  // The sandbox call itself needs only the session; the request it replays is held to the chosen key's scopes.
  { method: 'POST', path: '/developer/sandbox', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.1' },

  // §4.2 Accounts and sessions.
  { method: 'POST', path: '/auth/register', access: 'open', scopes: [], billing: 'default', source: 'part1 §4.2' },
  { method: 'POST', path: '/auth/login', access: 'open', scopes: [], billing: 'default', source: 'part1 §4.2' },
  { method: 'GET', path: '/auth/me', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.2' },
  { method: 'PATCH', path: '/auth/me', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.2' },
  { method: 'POST', path: '/auth/logout', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.2, part1 §3' },
  { method: 'GET', path: '/auth/sessions', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.2' },
  { method: 'DELETE', path: '/auth/sessions/{sessionId}', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.2, part1 §3' },
  // Spec writes DELETE /auth/sessions?all=1; the gate matches on the path alone.
  { method: 'DELETE', path: '/auth/sessions', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.2, part1 §3' },
  { method: 'GET', path: '/auth/me/export', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.2' },
  { method: 'DELETE', path: '/auth/me', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.2, part1 §3' },
  { method: 'GET', path: '/auth/providers', access: 'open', scopes: [], billing: 'default', source: 'part1 §4.2' },
  { method: 'GET', path: '/auth/oauth/{provider}/start', access: 'open', scopes: [], billing: 'default', source: 'part1 §4.2' },
  { method: 'GET', path: '/auth/oauth/{provider}/callback', access: 'open', scopes: [], billing: 'default', source: 'part1 §4.2' },
  // Open although it completes a sign-in: the caller has no session yet; the one-time linkToken (and password) is the credential.
  { method: 'POST', path: '/auth/oauth/link', access: 'open', scopes: [], billing: 'default', source: 'part1 §4.2' },
  { method: 'POST', path: '/auth/idp', access: 'open', scopes: [], billing: 'default', source: 'part1 §4.2' },
  // Named only in §4.2 rule 6. §4.3 lets a signed-in user's bearer token or a developer API key call saved places
  // and lists, history, live sharing and push tokens; a key acts for its owner (services/user-data/acting-user.ts).
  // No scope: none of the eleven (§2.2) covers a user's own data, and §8 counts "account endpoints" among those
  // that need no key scope; a presented key is still held to being active, its restrictions and its owner's standing.
  // The same holds for every /me/* row that says key-or-bearer.
  { method: 'POST', path: '/me/history', access: 'key-or-bearer', scopes: [], billing: 'default', source: 'part1 §4.2, part1 §4.3' },

  // §4.4 Push tokens, notifications, saved places.
  // Push tokens and saved places: key-or-bearer and no scope, as /me/history above (§4.3 names both); a token
  // registered through a key is bound to the key's owner.
  { method: 'POST', path: '/me/push-tokens', access: 'key-or-bearer', scopes: [], billing: 'default', source: 'part1 §4.4, part1 §4.3' },
  { method: 'DELETE', path: '/me/push-tokens/{token}', access: 'key-or-bearer', scopes: [], billing: 'default', source: 'part1 §4.4, part1 §4.3' },
  // "Notification rules: bearer token required" (§4.4): the inbox is not among §4.3's key-or-bearer resources.
  { method: 'GET', path: '/me/notifications', access: 'bearer', scopes: [], billing: 'default', source: 'part1 §4.4' },
  { method: 'GET', path: '/me/saved-places', access: 'key-or-bearer', scopes: [], billing: 'default', source: 'part1 §4.4, part1 §4.3' },
  { method: 'POST', path: '/me/saved-places', access: 'key-or-bearer', scopes: [], billing: 'default', source: 'part1 §4.4, part1 §4.3' },

  // ──────────────────── Part 2: geocoding, places, transit, tiles ────────────────────

  // §4.1 Addressing (scope geo). Open: Plus Code reads are geocoding reads (part 1 §4.3).
  { method: 'GET', path: '/geo/pluscode', access: 'open', scopes: ['geo'], billing: 'default', source: 'part2 §4.1' },
  { method: 'GET', path: '/geo/pluscode/decode', access: 'open', scopes: ['geo'], billing: 'default', source: 'part2 §4.1' },
  { method: 'GET', path: '/geo/address', access: 'open', scopes: ['geo'], billing: 'default', source: 'part2 §4.1' },
  // A 50-point bulk POST, not a plain read: open would let anonymous callers batch past the per-IP quota (§8 rule 3).
  { method: 'POST', path: '/geo/address/batch', access: 'key-or-bearer', scopes: ['geo'], billing: 'default', source: 'part2 §4.1' },
  { method: 'GET', path: '/geo/addressing/config', access: 'open', scopes: ['geo'], billing: 'default', source: 'part2 §4.1' },

  // §4.2 Geocoding (scope geocode).
  { method: 'GET', path: '/geocode/search', access: 'open', scopes: ['geocode'], billing: 'geocode', source: 'part2 §4.2' },
  { method: 'GET', path: '/geocode/autocomplete', access: 'open', scopes: ['geocode'], billing: 'geocode', source: 'part2 §4.2' },
  { method: 'GET', path: '/geocode/reverse', access: 'open', scopes: ['geocode'], billing: 'geocode', source: 'part2 §4.2' },
  // Bulk POST treated as compute, not a "geocoding read": anonymous 50-query batches would bypass the per-IP quota.
  { method: 'POST', path: '/geocode/batch', access: 'key-or-bearer', scopes: ['geocode'], billing: 'geocode', source: 'part2 §4.2' },
  // Same reasoning as /geocode/batch.
  { method: 'POST', path: '/geocode/reverse-batch', access: 'key-or-bearer', scopes: ['geocode'], billing: 'geocode', source: 'part2 §4.2' },

  // §4.3 Search (scope search).
  { method: 'GET', path: '/search', access: 'open', scopes: ['search'], billing: 'default', source: 'part2 §4.3, part2 §4.7' },
  { method: 'GET', path: '/search/suggestions', access: 'open', scopes: ['search'], billing: 'default', source: 'part2 §4.3' },
  // A write: key-or-bearer under the POST rule even though search itself is open, so anonymous
  // searchers' click events are refused; the spec does not say who records them.
  { method: 'POST', path: '/search/events', access: 'key-or-bearer', scopes: ['search'], throttlePerMinute: 60, throttleLiftedForUnlimited: true, billing: 'default', source: 'part2 §4.3, part1 §8' },

  // §4.4 Places (scope places).
  { method: 'GET', path: '/places', access: 'open', scopes: ['places'], billing: 'default', source: 'part2 §4.4, part2 §4.7' },
  { method: 'GET', path: '/places/thumb', access: 'open', scopes: ['places'], billing: 'default', source: 'part2 §4.4' },
  { method: 'GET', path: '/places/facets', access: 'open', scopes: ['places'], billing: 'default', source: 'part2 §4.4' },
  { method: 'GET', path: '/places/categories', access: 'open', scopes: ['places'], billing: 'default', source: 'part2 §4.4' },
  { method: 'GET', path: '/places/{slug}', access: 'open', scopes: ['places'], billing: 'default', source: 'part2 §4.4, part1 §7' },
  { method: 'GET', path: '/places/{slug}/hours', access: 'open', scopes: ['places'], billing: 'default', source: 'part2 §4.4' },

  // §4.5 Holidays (scope places).
  { method: 'GET', path: '/holidays', access: 'open', scopes: ['places'], billing: 'default', source: 'part2 §4.5' },
  { method: 'GET', path: '/holidays/today', access: 'open', scopes: ['places'], billing: 'default', source: 'part2 §4.5' },
  { method: 'GET', path: '/holidays/on', access: 'open', scopes: ['places'], billing: 'default', source: 'part2 §4.5' },
  { method: 'GET', path: '/holidays/upcoming', access: 'open', scopes: ['places'], billing: 'default', source: 'part2 §4.5' },
  { method: 'GET', path: '/holidays/hijri', access: 'open', scopes: ['places'], billing: 'default', source: 'part2 §4.5' },

  // §4.6 Transit, micromobility, offline (scope per row).
  { method: 'GET', path: '/transit/stops', access: 'open', scopes: ['places'], billing: 'default', source: 'part2 §4.6' },
  { method: 'GET', path: '/transit/routes', access: 'open', scopes: ['places'], billing: 'default', source: 'part2 §4.6' },
  { method: 'GET', path: '/transit/gbfs', access: 'open', scopes: ['places'], billing: 'default', source: 'part2 §4.6' },
  { method: 'POST', path: '/transit/plan', access: 'key-or-bearer', scopes: ['routing'], billing: 'default', source: 'part2 §4.6' },
  { method: 'GET', path: '/offline/regions', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.6' },
  // Key-or-bearer, not open: a manifest needs the offline_maps entitlement (part3 §4.9; docs/billing.md "Gates"), so the
  // caller must be someone — the signed-in user, or the owner of the key.
  { method: 'GET', path: '/offline/regions/{id}/manifest', access: 'key-or-bearer', scopes: ['tiles'], billing: 'default', source: 'part2 §4.6, part3 §4.9 (offline_maps gate)' },

  // §4.7 Map styles and tiles (scope tiles). §8 rule 4 says some burst-fetched tile layers are never
  // throttled but names none, so no row carries neverThrottled.
  { method: 'GET', path: '/tiles/styles', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.7' },
  { method: 'GET', path: '/tiles/style', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.7' },
  { method: 'GET', path: '/tiles/tilejson/svc', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.7' },
  // Path as the spec writes it; the spec also accepts {y} without the .pbf extension.
  { method: 'GET', path: '/tiles/vector/svc/planet/{z}/{x}/{y}.pbf', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.7' },
  // Path as the spec writes it; .webp (natural-earth) and other extensions (satellite) are also requested: the
  // router hands the whole last segment to the route. `svc-watermark` is a source of ours beside the spec's four.
  { method: 'GET', path: '/tiles/raster/{source}/{z}/{x}/{y}.png', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.7' },
  { method: 'GET', path: '/tiles/glyphs/svc/{fontstack}/{range}.pbf', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.7' },
  // Base path as the spec writes it (answers the 1x index); renderers fetch it with .json, .png, @2x.json and
  // @2x.png appended, each a route of its own below.
  { method: 'GET', path: '/tiles/sprites/svc/sprite', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.7' },
  { method: 'GET', path: '/tiles/sprites/svc/sprite.json', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.7' },
  { method: 'GET', path: '/tiles/sprites/svc/sprite.png', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.7' },
  { method: 'GET', path: '/tiles/sprites/svc/sprite@2x.json', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.7' },
  { method: 'GET', path: '/tiles/sprites/svc/sprite@2x.png', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.7' },
  // Static map images: part 3 names them with scope tiles and leaves the shapes open; designed after Google Static
  // Maps and Mapbox Static Images (docs/static-maps.md). Open like the tiles, with the watermark without a key.
  { method: 'GET', path: '/static/map', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part3 (static map images, scope tiles; shapes designed, issue #29)' },

  // §4.8 Map data (scope tiles; places for /map/poi).
  { method: 'GET', path: '/map/config', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.8, part2 §2.4, part2 §2.10, part2 §4.7' },
  { method: 'GET', path: '/map/layers', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.8' },
  { method: 'GET', path: '/map/category-styles', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.8' },
  { method: 'GET', path: '/map/icons/sprite.svg', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.8' },
  // Pin icons at the URLs places return (part2 §2.4 iconLightUrl/iconDarkUrl): fetched by <img> without a key.
  { method: 'GET', path: '/map/icons/pins/{file}', access: 'open', scopes: [], billing: 'default', source: 'designed (issue #29; part2 §2.4 iconLightUrl/iconDarkUrl)' },
  { method: 'GET', path: '/map/icons/sprite.json', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.8' },
  // Listed with map data, so open with tiles; the spec does not say this self-audit is operator-only.
  { method: 'GET', path: '/map/readiness', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.8' },
  { method: 'GET', path: '/map/poi', access: 'open', scopes: ['places'], billing: 'default', source: 'part2 §4.8, part2 §4.7' },
  { method: 'GET', path: '/map/overlays/{layerType}', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.8' },
  { method: 'GET', path: '/map/overlays/{layerType}/tile-cover', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.8' },
  { method: 'GET', path: '/map/overlays/{layerType}/tiles/{z}/{x}/{y}', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.8' },
  { method: 'GET', path: '/map/overlays/{layerType}/vector/{z}/{x}/{y}', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.8' },
  { method: 'GET', path: '/map/logistics-zones.geojson', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.8' },
  { method: 'GET', path: '/map/weather/geojson', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.8' },
  { method: 'GET', path: '/map/weather/geojson/tiles/{z}/{x}/{y}', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.8' },
  { method: 'GET', path: '/map/weather/vector/{z}/{x}/{y}', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.8' },
  { method: 'GET', path: '/map/weather/tiles/{z}/{x}/{y}', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.8' },
  { method: 'GET', path: '/map/weather/tile-cover', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.8' },
  { method: 'GET', path: '/map/weather-risk', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.8' },
  { method: 'GET', path: '/map/weather/point', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part2 §4.8' },
  // A routing computation POST, so key-or-bearer; §2.10 lists routeRisk under capabilities.publicEndpoints,
  // which may mean it is meant to be callable anonymously.
  { method: 'POST', path: '/map/route-risk', access: 'key-or-bearer', scopes: ['routing'], billing: 'default', source: 'part2 §4.8' },

  // ──────────────── Part 3: routing, navigation, optimization, and the rest ────────────────

  // §4.1 Routing (scope routing). POSTs need an identified caller (also part 1 §4.3 "POST /routing/*").
  { method: 'POST', path: '/routing/route', access: 'key-or-bearer', scopes: ['routing'], billing: 'routing', source: 'part3 §4.1' },
  { method: 'GET', path: '/routing/profiles', access: 'open', scopes: ['routing'], billing: 'default', source: 'part3 §4.1' },
  { method: 'GET', path: '/routing/maneuver-types', access: 'open', scopes: ['routing'], billing: 'default', source: 'part3 §4.1' },
  { method: 'POST', path: '/routing/plan', access: 'key-or-bearer', scopes: ['routing'], billing: 'routing', source: 'part3 §4.1' },
  { method: 'POST', path: '/routing/matrix', access: 'key-or-bearer', scopes: ['routing'], billing: 'matrixOrIsochrone', source: 'part3 §4.1' },
  { method: 'POST', path: '/routing/isochrone', access: 'key-or-bearer', scopes: ['routing'], billing: 'matrixOrIsochrone', source: 'part3 §4.1' },
  { method: 'POST', path: '/routing/map-match', access: 'key-or-bearer', scopes: ['routing'], billing: 'routing', source: 'part3 §4.1' },
  // An engine passthrough in the routing section, so routing, not the opt-in optimize scope of §4.5.
  { method: 'POST', path: '/routing/optimize', access: 'key-or-bearer', scopes: ['routing'], billing: 'matrixOrIsochrone', source: 'part3 §4.1' },
  { method: 'POST', path: '/routing/route-attributes', access: 'key-or-bearer', scopes: ['routing'], billing: 'routing', source: 'part3 §4.1' },

  // §4.2 Navigation (scope routing). Every navigation endpoint, reads included, needs an identified caller.
  { method: 'POST', path: '/navigation/sessions', access: 'key-or-bearer', scopes: ['routing'], billing: 'routing', source: 'part3 §4.2, part3 §3' },
  { method: 'GET', path: '/navigation/sessions/{id}', access: 'key-or-bearer', scopes: ['routing'], billing: 'default', source: 'part3 §4.2' },
  { method: 'PATCH', path: '/navigation/sessions/{id}', access: 'key-or-bearer', scopes: ['routing'], billing: 'routing', source: 'part3 §4.2, part3 §3, part3 §6' },
  { method: 'DELETE', path: '/navigation/sessions/{id}', access: 'key-or-bearer', scopes: ['routing'], billing: 'default', source: 'part3 §4.2, part3 §3' },
  { method: 'POST', path: '/navigation/sessions/{id}/positions', access: 'key-or-bearer', scopes: ['routing'], billing: 'default', source: 'part3 §4.2, part3 §3, part3 §6' },
  { method: 'GET', path: '/navigation/sessions/{id}/events', access: 'key-or-bearer', scopes: ['routing'], billing: 'default', source: 'part3 §4.2, part3 §6' },
  { method: 'GET', path: '/navigation/sessions/{id}/eta', access: 'key-or-bearer', scopes: ['routing'], billing: 'default', source: 'part3 §4.2' },
  { method: 'POST', path: '/navigation/off-route', access: 'key-or-bearer', scopes: ['routing'], billing: 'default', source: 'part3 §4.2' },
  { method: 'POST', path: '/navigation/recalculate', access: 'key-or-bearer', scopes: ['routing'], billing: 'routing', source: 'part3 §4.2, part3 §3' },
  { method: 'POST', path: '/navigation/progress', access: 'key-or-bearer', scopes: ['routing'], billing: 'default', source: 'part3 §4.2' },
  { method: 'POST', path: '/navigation/arrival-check', access: 'key-or-bearer', scopes: ['routing'], billing: 'routing', source: 'part3 §4.2' },
  // Named only in prose inside the arrival-check row; takes the navigation section's access and scope.
  { method: 'POST', path: '/navigation/speak', access: 'key-or-bearer', scopes: ['routing'], billing: 'default', source: 'part3 §4.2' },

  // §4.3 Itineraries (scope routing; saved ones need a user session token, so no key scope applies).
  { method: 'POST', path: '/itinerary/plan', access: 'key-or-bearer', scopes: ['routing'], billing: 'default', source: 'part3 §4.3' },
  { method: 'POST', path: '/itinerary/auto', access: 'key-or-bearer', scopes: ['routing'], billing: 'default', source: 'part3 §4.3, part3 §4.7' },
  { method: 'GET', path: '/me/itineraries', access: 'bearer', scopes: [], billing: 'default', source: 'part3 §4.3' },
  { method: 'POST', path: '/me/itineraries', access: 'bearer', scopes: [], billing: 'default', source: 'part3 §4.3' },
  // The spec row reads "POST, PATCH": both methods update.
  { method: 'POST', path: '/me/itineraries/{id}', access: 'bearer', scopes: [], billing: 'default', source: 'part3 §4.3' },
  { method: 'PATCH', path: '/me/itineraries/{id}', access: 'bearer', scopes: [], billing: 'default', source: 'part3 §4.3' },
  { method: 'DELETE', path: '/me/itineraries/{id}', access: 'bearer', scopes: [], billing: 'default', source: 'designed (issue #26; part3 §4.3 delete "not shown"; access as the other /me/itineraries rows)' },
  // Row says "public"; the routing scope comes from the section heading, so a presented key still needs it.
  { method: 'GET', path: '/itineraries/{shareSlug}', access: 'open', scopes: ['routing'], billing: 'default', source: 'part3 §4.3' },

  // §4.4 Traffic and commute (scope per row). Learned-traffic reads are public data, so open.
  { method: 'GET', path: '/traffic/profile', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part3 §4.4' },
  { method: 'GET', path: '/traffic/labels', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part3 §4.4' },
  { method: 'GET', path: '/traffic/forecast', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part3 §4.4' },
  { method: 'GET', path: '/traffic/depart-optimizer', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part3 §4.4' },
  { method: 'GET', path: '/traffic/dna', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part3 §4.4' },
  { method: 'GET', path: '/traffic/insights', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part3 §4.4' },
  // insights is an opt-in scope for privacy-safe aggregates; letting anonymous callers in would make the opt-in meaningless.
  { method: 'GET', path: '/traffic/popularity', access: 'key-or-bearer', scopes: ['insights'], billing: 'default', source: 'part3 §4.4' },
  // The spec row lists /traffic/model/status and /traffic/model/validation together; split into two rows.
  { method: 'GET', path: '/traffic/model/status', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part3 §4.4' },
  { method: 'GET', path: '/traffic/model/validation', access: 'open', scopes: ['tiles'], billing: 'default', source: 'part3 §4.4' },
  { method: 'POST', path: '/commute/advice', access: 'key-or-bearer', scopes: ['routing'], billing: 'default', source: 'part3 §4.4' },
  // Same reasoning as /traffic/popularity.
  { method: 'GET', path: '/insights/summary', access: 'key-or-bearer', scopes: ['insights'], billing: 'default', source: 'part3 §4.4' },
  // The analysed-traffic endpoints name no scope; traffic ("Traffic and incidents", part 1 §2.2) rather than
  // tiles ("traffic model"), since they sit under /traffic and answer traffic questions. Open as public reads.
  { method: 'GET', path: '/traffic/analysed', access: 'open', scopes: ['traffic'], billing: 'default', source: 'part3 §4.4' },
  { method: 'GET', path: '/traffic/analysed/week', access: 'open', scopes: ['traffic'], billing: 'default', source: 'part3 §4.4' },
  { method: 'GET', path: '/traffic/analysed/outlook', access: 'open', scopes: ['traffic'], billing: 'default', source: 'part3 §4.4' },
  { method: 'GET', path: '/traffic/analysed/model', access: 'open', scopes: ['traffic'], billing: 'default', source: 'part3 §4.4' },
  { method: 'POST', path: '/traffic/route', access: 'key-or-bearer', scopes: ['routing', 'traffic'], billing: 'routing', source: 'part3 §4.4, part1 §2.2, part1 §4.3' },
  { method: 'POST', path: '/telemetry/trips', access: 'key-or-bearer', scopes: ['telemetry'], billing: 'default', source: 'part3 §4.4' },

  // §4.5 Route optimization (scope optimize).
  // A status probe with no data, so open; a presented key still needs the opt-in scope.
  { method: 'GET', path: '/optimize/health', access: 'open', scopes: ['optimize'], billing: 'default', source: 'part3 §4.5' },
  { method: 'POST', path: '/optimize/routes', access: 'key-or-bearer', scopes: ['optimize'], billing: 'optimization', source: 'part3 §4.5' },
  { method: 'POST', path: '/optimize/reoptimize', access: 'key-or-bearer', scopes: ['optimize'], billing: 'optimization', source: 'part3 §4.5' },
  { method: 'POST', path: '/optimize/binpack', access: 'key-or-bearer', scopes: ['optimize'], billing: 'optimization', source: 'part3 §4.5' },
  { method: 'POST', path: '/optimize/roster', access: 'key-or-bearer', scopes: ['optimize'], billing: 'optimization', source: 'part3 §4.5' },
  { method: 'POST', path: '/optimize/jobs', access: 'key-or-bearer', scopes: ['optimize'], billing: 'optimization', source: 'part3 §4.5, part3 §3' },
  // A job result is the submitter's data, not public data; open would expose it to anyone holding the id.
  { method: 'GET', path: '/optimize/jobs/{id}', access: 'key-or-bearer', scopes: ['optimize'], billing: 'default', source: 'part3 §4.5' },

  // §4.6 EV charging (scope per row).
  { method: 'GET', path: '/ev/stations', access: 'open', scopes: ['places'], billing: 'default', source: 'part3 §4.6' },
  { method: 'GET', path: '/ev/networks', access: 'open', scopes: ['places'], billing: 'default', source: 'part3 §4.6' },
  { method: 'POST', path: '/ev/plan', access: 'key-or-bearer', scopes: ['routing'], billing: 'default', source: 'part3 §4.6' },

  // §4.7 Assistant and voice. Only /ai/agent names its scope (places); the section names none, and part 1 §2.2
  // puts the assistant under places, so the other /ai/* rows take places too.
  { method: 'POST', path: '/ai/transcribe', access: 'key-or-bearer', scopes: ['places'], billing: 'default', source: 'part3 §4.7' },
  { method: 'POST', path: '/ai/search-understanding', access: 'key-or-bearer', scopes: ['places'], throttlePerMinute: 30, billing: 'default', source: 'part3 §4.7, part1 §8' },
  { method: 'POST', path: '/ai/route-labels', access: 'key-or-bearer', scopes: ['places'], throttlePerMinute: 30, billing: 'default', source: 'part3 §4.7, part1 §8' },
  { method: 'POST', path: '/ai/agent', access: 'key-or-bearer', scopes: ['places'], billing: 'default', source: 'part3 §4.7' },
  { method: 'POST', path: '/ai/constraints', access: 'key-or-bearer', scopes: ['places'], throttlePerMinute: 30, billing: 'default', source: 'part3 §4.7, part1 §8' },
  // Part 1 §8 calls the assistant an endpoint that "needs no key scope"; §2.2 and the /ai/agent row say places.
  { method: 'POST', path: '/ai/assistant', access: 'key-or-bearer', scopes: ['places'], billing: 'default', source: 'part3 §4.7' },
  // Named only as the agent's report_incident target. Reporting needs an identified caller (part 1 §4.3);
  // incidents fall under traffic ("Traffic and incidents", part 1 §2.2).
  { method: 'POST', path: '/incidents', access: 'key-or-bearer', scopes: ['traffic'], billing: 'default', source: 'part3 §4.7' },
  { method: 'GET', path: '/incidents', access: 'key-or-bearer', scopes: ['traffic'], billing: 'default', source: 'designed (issue #28 incidents; docs/incidents-feedback.md)' },
  { method: 'GET', path: '/incidents/{id}', access: 'key-or-bearer', scopes: ['traffic'], billing: 'default', source: 'designed (issue #28 incidents; docs/incidents-feedback.md)' },
  { method: 'POST', path: '/incidents/{id}/votes', access: 'key-or-bearer', scopes: ['traffic'], billing: 'default', source: 'designed (issue #28 incidents; docs/incidents-feedback.md)' },

  // §4.8 Feedback (scope per row).
  { method: 'POST', path: '/feedback', access: 'key-or-bearer', scopes: ['places'], billing: 'default', source: 'part3 §4.8' },
  { method: 'GET', path: '/feedback/categories', access: 'open', scopes: ['places'], billing: 'default', source: 'part3 §4.8' },
  { method: 'POST', path: '/feedback/implicit', access: 'key-or-bearer', scopes: ['places'], billing: 'default', source: 'part3 §4.8' },
  { method: 'GET', path: '/admin/feedback/problem-spots', access: 'admin', scopes: [], billing: 'default', source: 'part3 §4.8' },
  { method: 'GET', path: '/admin/feedback/routing-avoidances', access: 'admin', scopes: [], billing: 'default', source: 'part3 §4.8' },
  { method: 'GET', path: '/admin/feedback', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #28 feedback editor moves and road edits; part3 §3, §4.1; docs/incidents-feedback.md)' },
  { method: 'GET', path: '/admin/feedback/{id}', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #28 feedback editor moves and road edits; part3 §3, §4.1; docs/incidents-feedback.md)' },
  { method: 'POST', path: '/admin/feedback/{id}/status', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #28 feedback editor moves and road edits; part3 §3, §4.1; docs/incidents-feedback.md)' },
  { method: 'GET', path: '/admin/road-edits', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #28 feedback editor moves and road edits; part3 §3, §4.1; docs/incidents-feedback.md)' },
  { method: 'POST', path: '/admin/road-edits', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #28 feedback editor moves and road edits; part3 §3, §4.1; docs/incidents-feedback.md)' },
  { method: 'DELETE', path: '/admin/road-edits/{id}', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #28 feedback editor moves and road edits; part3 §3, §4.1; docs/incidents-feedback.md)' },
  // A user's kept sign disregards (part3 §4.1 `disregard`, part1 §4.2 export `signDisregards`).
  { method: 'GET', path: '/me/sign-disregards', access: 'bearer', scopes: [], billing: 'default', source: 'designed (issue #28 sign disregards; docs/incidents-feedback.md)' },
  { method: 'DELETE', path: '/me/sign-disregards/{featureKey}', access: 'bearer', scopes: [], billing: 'default', source: 'designed (issue #28 sign disregards; docs/incidents-feedback.md)' },

  // §4.9 Plans and entitlements.
  // Spec says "API key" with no scope; there is no key-only class, so key-or-bearer (a bearer is also let in).
  { method: 'GET', path: '/billing/plans', access: 'key-or-bearer', scopes: [], billing: 'default', source: 'part3 §4.9' },
  { method: 'GET', path: '/me/entitlements', access: 'bearer', scopes: [], billing: 'default', source: 'part3 §4.9' },

  // §4.10 Promoted placements.
  // Spec says "API key" with no scope; as for /billing/plans.
  { method: 'GET', path: '/ads/promoted', access: 'key-or-bearer', scopes: [], billing: 'default', source: 'part3 §4.10' },
  // Auth not stated; clicks are billed, so the same identified caller as /ads/promoted rather than anonymous.
  { method: 'POST', path: '/ads/{id}/click', access: 'key-or-bearer', scopes: [], billing: 'default', source: 'part3 §4.10' },
  // Designed (issue #30; docs/billing.md, docs/ads.md): invoice preview, the payment webhook, operators' entitlements and campaigns.
  { method: 'GET', path: '/developer/projects/{id}/invoice-preview', access: 'bearer', scopes: [], billing: 'default', source: 'designed (issue #30; part3 §4.9 metering, docs/billing.md)' },
  // Open: the provider holds no key or session; the HMAC signature over the body is its credential (checked by the handler).
  { method: 'POST', path: '/billing/webhooks/payments', access: 'open', scopes: [], billing: 'default', source: 'designed (issue #30; part3 §4.9 renewal, lapse, refund; docs/billing.md)' },
  { method: 'GET', path: '/admin/users/{id}/entitlements', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #30; part3 §4.9; docs/billing.md)' },
  { method: 'POST', path: '/admin/users/{id}/entitlements', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #30; part3 §4.9; docs/billing.md)' },
  { method: 'POST', path: '/admin/ads/campaigns', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #30; part3 §4.10 campaigns "not shown"; docs/ads.md)' },
  { method: 'GET', path: '/admin/ads/campaigns', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #30; part3 §4.10 campaigns "not shown"; docs/ads.md)' },
  { method: 'GET', path: '/admin/ads/campaigns/{id}', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #30; part3 §4.10 campaigns "not shown"; docs/ads.md)' },
  { method: 'PATCH', path: '/admin/ads/campaigns/{id}', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #30; part3 §4.10 campaigns "not shown"; docs/ads.md)' },
  { method: 'DELETE', path: '/admin/ads/campaigns/{id}', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #30; part3 §4.10 campaigns "not shown"; docs/ads.md)' },

  // ─────────────────────── Designed: endpoints the spec leaves "not shown" ───────────────────────
  // The product's own design (docs/accounts.md, docs/developer-portal.md, docs/navigation.md), held to the same gate.
  // Saved places and lists, history and live sharing: key-or-bearer with no scope, as POST /me/history (part1 §4.3).
  { method: 'PATCH', path: '/me/saved-places/{id}', access: 'key-or-bearer', scopes: [], billing: 'default', source: 'designed (part1 §4.4 "not shown"; access part1 §4.3)' },
  { method: 'DELETE', path: '/me/saved-places/{id}', access: 'key-or-bearer', scopes: [], billing: 'default', source: 'designed (part1 §4.4 "not shown"; access part1 §4.3)' },
  { method: 'GET', path: '/me/saved-lists', access: 'key-or-bearer', scopes: [], billing: 'default', source: 'designed (part1 §2.6a "not shown"; access part1 §4.3)' },
  { method: 'POST', path: '/me/saved-lists', access: 'key-or-bearer', scopes: [], billing: 'default', source: 'designed (part1 §2.6a "not shown"; access part1 §4.3)' },
  { method: 'PATCH', path: '/me/saved-lists/{id}', access: 'key-or-bearer', scopes: [], billing: 'default', source: 'designed (part1 §2.6a "not shown"; access part1 §4.3)' },
  { method: 'DELETE', path: '/me/saved-lists/{id}', access: 'key-or-bearer', scopes: [], billing: 'default', source: 'designed (part1 §2.6a "not shown"; access part1 §4.3)' },
  { method: 'GET', path: '/me/history', access: 'key-or-bearer', scopes: [], billing: 'default', source: 'designed (part1 §2.6a "not shown"; access part1 §4.3)' },
  { method: 'DELETE', path: '/me/history/{id}', access: 'key-or-bearer', scopes: [], billing: 'default', source: 'designed (part1 §2.6a "not shown"; access part1 §4.3)' },
  { method: 'DELETE', path: '/me/history', access: 'key-or-bearer', scopes: [], billing: 'default', source: 'designed (part1 §2.6a "not shown"; access part1 §4.3)' },
  { method: 'POST', path: '/me/live-shares', access: 'key-or-bearer', scopes: [], billing: 'default', source: 'designed (part1 §4.4 "not shown"; access part1 §4.3)' },
  { method: 'GET', path: '/me/live-shares', access: 'key-or-bearer', scopes: [], billing: 'default', source: 'designed (part1 §4.4 "not shown"; access part1 §4.3)' },
  { method: 'PATCH', path: '/me/live-shares/{id}', access: 'key-or-bearer', scopes: [], billing: 'default', source: 'designed (part1 §4.4 "not shown"; access part1 §4.3)' },
  { method: 'DELETE', path: '/me/live-shares/{id}', access: 'key-or-bearer', scopes: [], billing: 'default', source: 'designed (part1 §4.4 "not shown"; access part1 §4.3)' },
  // The public side of a share: whoever holds the token may see the position.
  { method: 'GET', path: '/live-shares/{token}', access: 'open', scopes: [], billing: 'default', source: 'designed (part1 §4.4 "not shown")' },
  { method: 'GET', path: '/admin/users', access: 'admin', scopes: [], billing: 'default', source: 'designed (part1 §3 operator actions)' },
  { method: 'PATCH', path: '/admin/users/{id}', access: 'admin', scopes: [], billing: 'default', source: 'designed (part1 §3 operator actions)' },
  { method: 'POST', path: '/admin/users/{id}/roles', access: 'admin', scopes: [], billing: 'default', source: 'designed (part1 §3 operator actions)' },
  { method: 'PATCH', path: '/admin/api-keys/{id}', access: 'admin', scopes: [], billing: 'default', source: 'designed (part1 §3 operator actions)' },
  { method: 'POST', path: '/admin/broadcasts', access: 'admin', scopes: [], billing: 'default', source: 'designed (part1 §6 admin_broadcast)' },
  // Saved commutes and their leave-now alerts (issue #28; docs/commute.md): a signed-in user's own data, bearer only.
  { method: 'GET', path: '/me/commutes', access: 'bearer', scopes: [], billing: 'default', source: 'designed (issue #28; part3 §4.4 commute, part1 §6 commute_leave_now)' },
  { method: 'POST', path: '/me/commutes', access: 'bearer', scopes: [], billing: 'default', source: 'designed (issue #28; part3 §4.4 commute, part1 §6 commute_leave_now)' },
  { method: 'GET', path: '/me/commutes/{id}', access: 'bearer', scopes: [], billing: 'default', source: 'designed (issue #28; part3 §4.4 commute)' },
  { method: 'PATCH', path: '/me/commutes/{id}', access: 'bearer', scopes: [], billing: 'default', source: 'designed (issue #28; part3 §4.4 commute)' },
  { method: 'DELETE', path: '/me/commutes/{id}', access: 'bearer', scopes: [], billing: 'default', source: 'designed (issue #28; part3 §4.4 commute)' },
  { method: 'GET', path: '/me/commutes/{id}/advice', access: 'bearer', scopes: [], billing: 'default', source: 'designed (issue #28; part3 §4.4 commute)' },
  // Geofences (issue #28; part3 §4.3 names them, "not shown"; docs/geofences.md): scope geo, owned by a project (a key's own,
  // or one the signed-in user names). Evaluation is one billed call per fix.
  { method: 'POST', path: '/geofences', access: 'key-or-bearer', scopes: ['geo'], billing: 'default', source: 'designed (issue #28; part3 §4.3 geofences "not shown")' },
  { method: 'GET', path: '/geofences', access: 'key-or-bearer', scopes: ['geo'], billing: 'default', source: 'designed (issue #28; part3 §4.3 geofences "not shown")' },
  { method: 'POST', path: '/geofences/evaluate', access: 'key-or-bearer', scopes: ['geo'], billing: 'default', source: 'designed (issue #28; part3 §4.3 device evaluation, §6 geofence webhooks)' },
  { method: 'GET', path: '/geofences/{id}', access: 'key-or-bearer', scopes: ['geo'], billing: 'default', source: 'designed (issue #28; part3 §4.3 geofences "not shown")' },
  { method: 'DELETE', path: '/geofences/{id}', access: 'key-or-bearer', scopes: ['geo'], billing: 'default', source: 'designed (issue #28; part3 §4.3 geofences "not shown")' },
  { method: 'GET', path: '/geofences/{id}/webhook-deliveries', access: 'key-or-bearer', scopes: ['geo'], billing: 'default', source: 'designed (issue #28; part3 §6 geofence webhooks, delivery log)' },
  { method: 'GET', path: '/openapi.json', access: 'open', scopes: [], billing: 'default', source: 'designed (OpenAPI document)' },
  { method: 'GET', path: '/navigation/sessions/{id}/webhook-deliveries', access: 'key-or-bearer', scopes: ['routing'], billing: 'default', source: 'designed (part3 §6 webhooks, delivery log)' },
  { method: 'GET', path: '/navigation/sessions/{id}/stream', access: 'key-or-bearer', scopes: ['routing'], billing: 'default', source: 'designed (part3 §4.2 sessions, streamed over WebSocket)' },
  { method: 'POST', path: '/optimize/fleets', access: 'key-or-bearer', scopes: ['optimize'], billing: 'optimization', source: 'designed (issue #8 live fleets; part3 §4.5)' },
  { method: 'GET', path: '/optimize/fleets/{fleetId}', access: 'key-or-bearer', scopes: ['optimize'], billing: 'default', source: 'designed (issue #8 live fleets; part3 §4.5)' },
  { method: 'GET', path: '/optimize/fleets/{fleetId}/plan', access: 'key-or-bearer', scopes: ['optimize'], billing: 'default', source: 'designed (issue #8 live fleets; part3 §4.5)' },
  { method: 'POST', path: '/optimize/fleets/{fleetId}/events', access: 'key-or-bearer', scopes: ['optimize'], billing: 'optimization', source: 'designed (issue #8 live fleets; part3 §4.5)' },
  { method: 'GET', path: '/optimize/fleets/{fleetId}/stream', access: 'key-or-bearer', scopes: ['optimize'], billing: 'default', source: 'designed (issue #8 live fleets, streamed over WebSocket)' },
  // Operators manage the logistics zones the map draws (docs/map-data.md, "Logistics zones").
  { method: 'POST', path: '/admin/logistics-zones', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #29; part2 §4.8 logistics zones)' },
  { method: 'GET', path: '/admin/logistics-zones', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #29; part2 §4.8 logistics zones)' },
  { method: 'GET', path: '/admin/logistics-zones/{id}', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #29; part2 §4.8 logistics zones)' },
  { method: 'PATCH', path: '/admin/logistics-zones/{id}', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #29; part2 §4.8 logistics zones)' },
  { method: 'DELETE', path: '/admin/logistics-zones/{id}', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #29; part2 §4.8 logistics zones)' },
  // Operators announce, confirm, correct or withdraw a Hijri month start (docs/calendars.md, "Announcements").
  { method: 'PUT', path: '/admin/calendars/{country}/hijri/{year}/{month}', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #23; part2 §3 Hijri month start)' },
  { method: 'DELETE', path: '/admin/calendars/{country}/hijri/{year}/{month}', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #23; part2 §3 Hijri month start)' },
  { method: 'GET', path: '/admin/calendars/{country}/hijri/{year}', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #23; part2 §3 Hijri month start)' },
  // Operators set a place's sponsored flag and claim status (docs/places.md, "Operator fields").
  { method: 'PATCH', path: '/admin/places/{slug}', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #24; part2 §2.4 sponsored, §3 claimStatus)' },
  // User content of places (issue #24; docs/places.md "User content"). Scope places: part1 §2.2 has it grant "photos,
  // reviews". Reading is open, as place details (part1 §4.3). Writing needs an identified user: key-or-bearer as the
  // user-data rows above and reporting (part1 §4.3 lets a key in where a signed-in user may call); a key writes as its
  // owner (services/user-data/acting-user.ts). Creating content has a tighter per-IP throttle, kept for unlimited keys
  // too (an anti-abuse limit, part1 §8 "Unlimited keys"); per-user daily caps are the service's
  // (services/places/place-content-service.ts).
  { method: 'GET', path: '/places/{slug}/reviews', access: 'open', scopes: ['places'], billing: 'default', source: 'designed (issue #24; part2 §2.4 reviews)' },
  { method: 'GET', path: '/places/{slug}/reviews/mine', access: 'key-or-bearer', scopes: ['places'], billing: 'default', source: 'designed (issue #24; part2 §2.4 reviews)' },
  { method: 'POST', path: '/places/{slug}/reviews', access: 'key-or-bearer', scopes: ['places'], throttlePerMinute: 30, billing: 'default', source: 'designed (issue #24; part2 §2.4 reviews)' },
  { method: 'PATCH', path: '/places/{slug}/reviews/{reviewId}', access: 'key-or-bearer', scopes: ['places'], throttlePerMinute: 30, billing: 'default', source: 'designed (issue #24; part2 §2.4 reviews)' },
  { method: 'DELETE', path: '/places/{slug}/reviews/{reviewId}', access: 'key-or-bearer', scopes: ['places'], billing: 'default', source: 'designed (issue #24; part2 §2.4 reviews)' },
  { method: 'GET', path: '/places/{slug}/questions', access: 'open', scopes: ['places'], billing: 'default', source: 'designed (issue #24; part2 §2.4 Q&A)' },
  { method: 'POST', path: '/places/{slug}/questions', access: 'key-or-bearer', scopes: ['places'], throttlePerMinute: 30, billing: 'default', source: 'designed (issue #24; part2 §2.4 Q&A)' },
  { method: 'DELETE', path: '/places/{slug}/questions/{questionId}', access: 'key-or-bearer', scopes: ['places'], billing: 'default', source: 'designed (issue #24; part2 §2.4 Q&A)' },
  { method: 'GET', path: '/places/{slug}/questions/{questionId}/answers', access: 'open', scopes: ['places'], billing: 'default', source: 'designed (issue #24; part2 §2.4 Q&A)' },
  { method: 'POST', path: '/places/{slug}/questions/{questionId}/answers', access: 'key-or-bearer', scopes: ['places'], throttlePerMinute: 30, billing: 'default', source: 'designed (issue #24; part2 §2.4 Q&A)' },
  { method: 'DELETE', path: '/places/{slug}/questions/{questionId}/answers/{answerId}', access: 'key-or-bearer', scopes: ['places'], billing: 'default', source: 'designed (issue #24; part2 §2.4 Q&A)' },
  { method: 'GET', path: '/places/{slug}/photos', access: 'open', scopes: ['places'], billing: 'default', source: 'designed (issue #24; part2 §2.4 photos)' },
  { method: 'POST', path: '/places/{slug}/photos', access: 'key-or-bearer', scopes: ['places'], throttlePerMinute: 30, billing: 'default', source: 'designed (issue #24; part2 §2.4 photos)' },
  { method: 'DELETE', path: '/places/{slug}/photos/{photoId}', access: 'key-or-bearer', scopes: ['places'], billing: 'default', source: 'designed (issue #24; part2 §2.4 photos)' },
  // The uploader's own list, as the other /me rows: no scope.
  { method: 'GET', path: '/me/place-photos', access: 'key-or-bearer', scopes: [], billing: 'default', source: 'designed (issue #24; part2 §2.4 photos; access part1 §4.3)' },
  // Approved photo images at the site root, where part2 §2.4 puts uploads (logoUrl "/uploads/..."): fetched by <img>
  // without credentials, like the static assets of /docs.
  { method: 'GET', path: '/uploads/place-photos/{file}', mount: 'root', access: 'open', scopes: [], billing: 'default', source: 'designed (issue #24; part2 §2.4 imageUrl, "/uploads/...")' },
  { method: 'GET', path: '/uploads/place-logos/{file}', mount: 'root', access: 'open', scopes: [], billing: 'default', source: 'designed (issue #24; part2 §2.4 logoUrl "/uploads/...")' },
  { method: 'PUT', path: '/admin/places/{slug}/logo', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #24; part2 §2.4 logoUrl, image resolution order)' },
  { method: 'DELETE', path: '/admin/places/{slug}/logo', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #24; part2 §2.4 logoUrl, image resolution order)' },
  { method: 'GET', path: '/admin/place-photos', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #24; photo moderation)' },
  { method: 'GET', path: '/admin/place-photos/{photoId}/image', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #24; photo moderation)' },
  { method: 'PATCH', path: '/admin/place-photos/{photoId}', access: 'admin', scopes: [], billing: 'default', source: 'designed (issue #24; photo moderation)' },

  // ─────────────────────────── Operations: at the root, outside /api/v1 ───────────────────────────
  // Outside the access gate and its limits: probes, scrapers and the documentation page have no key.
  // Weather icons at the site root (part2 §2.11), fetched by <img> without credentials like the uploads above.
  { method: 'GET', path: '/uploads/weather-icons/{file}', mount: 'root', access: 'open', scopes: [], billing: 'default', source: 'part2 §2.11' },

  { method: 'GET', path: '/health', mount: 'root', access: 'open', scopes: [], billing: 'default', source: 'designed (operations: liveness)' },
  { method: 'GET', path: '/ready', mount: 'root', access: 'open', scopes: [], billing: 'default', source: 'designed (operations: readiness)' },
  { method: 'GET', path: '/metrics', mount: 'root', access: 'open', scopes: [], billing: 'default', source: 'designed (operations: Prometheus metrics, on the METRICS_PORT listener only)' },
  { method: 'GET', path: '/docs', mount: 'root', access: 'open', scopes: [], billing: 'default', source: 'designed (operations: API documentation page)' },
  { method: 'GET', path: '/docs/{asset}', mount: 'root', access: 'open', scopes: [], billing: 'default', source: 'designed (operations: API documentation assets)' },
  // The web app's page and static files: the page asks its user for an API key, it holds none.
  { method: 'GET', path: '/', mount: 'root', access: 'open', scopes: [], billing: 'default', source: 'designed (issue #32; web app page)' },
  { method: 'GET', path: '/app/{asset}', mount: 'root', access: 'open', scopes: [], billing: 'default', source: 'designed (issue #32; web app assets)' },
];

/** The table the application serves by. */
export const ENDPOINT_TABLE = new EndpointTable(ENDPOINT_ROWS);
