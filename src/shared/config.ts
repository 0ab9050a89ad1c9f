import { isIP } from 'node:net';
import { z } from 'zod';

/** Default JSON body limit: 1 MiB. Routes may override it. */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
/** How long SIGTERM waits for in-flight requests before closing anyway. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;
/** Time budget of one routing computation. */
export const DEFAULT_ROUTING_TIMEOUT_MS = 10_000;
/** Per-dependency timeout of the readiness probe. */
export const DEFAULT_READY_TIMEOUT_MS = 1_500;

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .transform((value) => (value === '' ? undefined : value))
    .optional()
    .refine(
      (value) => {
        if (value === undefined) return true;
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      { message: `must be a URL with protocol ${protocols.join(' or ')}` },
    );

const integer = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

const flag = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], { error: 'must be true or false' })
    .default(fallback)
    .transform((value) => ['true', '1', 'yes', 'on'].includes(value));

const identifier = (fallback: string) =>
  z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,40}$/, 'must be lowercase letters, digits or _ (max 41 characters)')
    .default(fallback);

/** An http(s) XYZ tile template with `{z}`, `{x}` and `{y}`, or unset. */
const tileTemplate = () =>
  optionalUrl(['http:', 'https:']).refine((value) => value === undefined || ['{z}', '{x}', '{y}'].every((part) => value.includes(part)), {
    message: 'must be a tile URL template with {z}, {x} and {y}',
  });

const optionalText = () =>
  z
    .string()
    .trim()
    .max(500)
    .optional()
    .transform((value) => (value ? value : undefined));

/** An operator-configured service URL: https (http only on loopback), no credentials in it (use the key variable). */
const operatorEndpoint = (keyVariable: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined))
    .refine((value) => value === undefined || isHttpsOrLoopback(value), { message: 'must be an https URL (http only on loopback)' })
    .refine((value) => value === undefined || !URL.canParse(value) || (!new URL(value).username && !new URL(value).password), { message: `must not carry credentials: set ${keyVariable}` });

/** Issuer and verifier URLs must be https, except on loopback (a local provider in development and tests). */
function isHttpsOrLoopback(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.protocol === 'https:') return true;
    return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

/** One generic OpenID Connect provider for social and identity-provider sign-in. */
export const oidcProviderSchema = z.object({
  id: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/),
  label: z.string().min(1).max(60),
  issuer: z.string().refine(isHttpsOrLoopback, { message: 'must be an https URL (http only on loopback)' }),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1).optional(),
  scopes: z.string().default('openid email profile'),
  /**
   * `true`: the provider accepts the resource-owner password grant for this client, and password login to an
   * account created through it is checked there (spec part 1 §4.2 rule 5). `false`: such logins answer 400
   * PROVIDER_ACCOUNT (rule 4).
   */
  passwordGrant: z.boolean({ error: 'must be true or false' }).default(false),
});
export type OidcProviderConfig = z.infer<typeof oidcProviderSchema>;

const jsonList = <T extends z.ZodType>(item: T) =>
  z
    .string()
    .optional()
    .transform((value, context) => {
      if (!value) return [];
      try {
        return JSON.parse(value) as unknown;
      } catch {
        context.addIssue({ code: 'custom', message: 'must be a JSON array' });
        return z.NEVER;
      }
    })
    .pipe(z.array(item));

/**
 * The environment the process reads, validated once at start.
 * Nothing else in the code base reads `process.env`.
 */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** TCP port of the edge; 0 picks a free port (tests). */
  PORT: integer(0, 65535, 8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  /**
   * Port of the Prometheus `/metrics` listener. Metrics are served there only, never on PORT, so API callers cannot
   * read them; unset = no metrics over HTTP. 0 picks a free port (tests).
   */
  METRICS_PORT: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined))
    .pipe(z.coerce.number<string | undefined>().int().min(0).max(65535).optional()),
  /** Address the metrics listener binds; unset = HOST. */
  METRICS_HOST: z.string().trim().min(1).optional(),
  /**
   * `true` lets several server processes listen on one PORT (SO_REUSEPORT: the kernel spreads connections over
   * them, e.g. one process per core). Off by default, so a second server started by mistake fails to listen
   * instead of silently taking half the traffic; on only with shared state (DATABASE_URL, REDIS_URL, NATS_URL).
   * The port must be named: uSockets binds port 0 exclusively.
   */
  REUSE_PORT: flag('false'),
  /** Postgres connection string; unset = embedded PGlite. */
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  /** Postgres schema the product's tables live in (lets parallel test runs share a database). */
  DATABASE_SCHEMA: identifier('public'),
  /** Redis connection string; unset = in-memory counters. */
  REDIS_URL: optionalUrl(['redis:', 'rediss:']),
  /** Prefix of every Redis key this deployment writes. */
  REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9:_-]{1,40}$/).default('svc:'),
  /** NATS server list (comma separated nats:// URLs); unset = in-process bus. */
  NATS_URL: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value.split(',').map((part) => part.trim()).filter(Boolean) : undefined))
    .refine((servers) => servers === undefined || servers.every((server) => /^(nats|tls):\/\/[^\s]+$/.test(server)), {
      message: 'must be nats:// URLs separated by commas',
    }),
  /** First token of every bus subject, so deployments (or test runs) sharing a NATS server stay apart. */
  BUS_NAMESPACE: identifier('svc'),
  /** Where the embedded database and data packs live; `memory://` keeps the database in memory. */
  DATA_DIR: z.string().min(1).default('./var'),
  /** A map data pack built with `npm run ingest`; unset = the embedded Nasr City pack, built on first start under DATA_DIR. */
  DATA_PACK: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined)),
  /** HS256 key for access tokens (at least 32 characters); unset = a random key kept in the database. */
  JWT_SECRET: z
    .string()
    .optional()
    .transform((value) => (value ? value : undefined))
    .refine((value) => value === undefined || value.length >= 32, { message: 'must be at least 32 characters' }),
  /** JSON array of OpenID Connect providers: `[{ id, label, issuer, clientId, clientSecret?, scopes?, passwordGrant? }]`. */
  OIDC_PROVIDERS: jsonList(oidcProviderSchema),
  /** Public origin of the API (e.g. https://api.example.com), used in OAuth redirect URIs; unset = from the Host header. */
  PUBLIC_BASE_URL: z.url().optional(),
  /** Proxies (IPs or CIDR ranges, comma separated) whose X-Forwarded-For is believed for the client address. */
  TRUSTED_PROXIES: z
    .string()
    .optional()
    .transform((value) => (value ? value.split(',').map((entry) => entry.trim()).filter(Boolean) : []))
    .refine((entries) => entries.every((entry) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(entry) && isIP(entry.split('/')[0]!) !== 0), {
      message: 'must be IP addresses or CIDR ranges separated by commas',
    }),
  /** Public site origin for share links (Plus Code `shareUrl` = SITE_URL/a/<code>); unset = PUBLIC_BASE_URL, else http://localhost:PORT. */
  SITE_URL: optionalUrl(['https:', 'http:']).transform((value) => value?.replace(/\/+$/, '')),
  /** `false` switches geocoding off: its endpoints answer `available: false, status: 502` (spec part 2 §4.2). */
  GEOCODING_ENABLED: flag('true'),
  /**
   * Captcha of the browser sign-in form: the site key shown to the form, the secret and the `siteverify` URL
   * (hCaptcha / Turnstile protocol) that checks its tokens. All three or none: captcha is on when they are set.
   */
  CAPTCHA_SITE_KEY: z.string().min(1).optional(),
  CAPTCHA_SECRET: z.string().min(1).optional(),
  CAPTCHA_VERIFY_URL: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined))
    .refine((value) => value === undefined || isHttpsOrLoopback(value), { message: 'must be an https URL (http only on loopback)' }),
  /** How long one captcha verification may take; past it the sign-in is refused with 503 CAPTCHA_UNAVAILABLE. */
  CAPTCHA_TIMEOUT_MS: integer(100, 60_000, 5_000),
  /**
   * An OpenAI-compatible embeddings endpoint (`POST {url}` with `{ model, input }`) that /search with
   * `semantic=on` asks as a second meaning signal (docs/places.md). https, or http on loopback; no
   * credentials in the URL (EMBEDDINGS_API_KEY is sent as a bearer token). Unset: the concept index alone.
   */
  EMBEDDINGS_URL: operatorEndpoint('EMBEDDINGS_API_KEY'),
  EMBEDDINGS_MODEL: z.string().trim().min(1).max(200).default('text-embedding-3-small'),
  EMBEDDINGS_API_KEY: z.string().min(1).optional(),
  /** Time one search waits for the query's embedding; past it the search goes on without it. */
  EMBEDDINGS_TIMEOUT_MS: integer(20, 10_000, 300),
  /**
   * Shared secret of the payment provider's webhook (POST /billing/webhooks/payments, docs/billing.md): HMAC-SHA256
   * over `<timestamp>.<raw body>`, at least 32 characters. Unset: the webhook answers 503 and only operators
   * change entitlements.
   */
  BILLING_WEBHOOK_SECRET: z
    .string()
    .optional()
    .transform((value) => (value ? value : undefined))
    .refine((value) => value === undefined || value.length >= 32, { message: 'must be at least 32 characters' }),
  /** How far a webhook's signed timestamp may be from the server's clock, in seconds (replay window). */
  BILLING_WEBHOOK_TOLERANCE_S: integer(30, 3_600, 300),
  /**
   * The assistant's optional language model (docs/assistant.md): an OpenAI-compatible base URL
   * (`{url}/chat/completions`), https or http on loopback, no credentials in the URL (LLM_API_KEY is sent
   * as a bearer token). Unset: the deterministic parser alone.
   */
  LLM_BASE_URL: operatorEndpoint('LLM_API_KEY'),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_MODEL: z.string().trim().min(1).max(200).default('gpt-4o-mini'),
  /** Longest the model may take to propose an action; past it the parser answers. */
  LLM_TIMEOUT_MS: integer(50, 30_000, 2_500),
  /** Overall time limit of one /ai/agent or /ai/assistant answer (model, then grounding). */
  AI_TIME_LIMIT_MS: integer(200, 60_000, 4_000),
  /** Days prompts, history and replies are kept (at most 30, spec part 3 §4.7). */
  ASSISTANT_RETENTION_DAYS: integer(1, 30, 30),
  /** An OpenAI-compatible `/audio/transcriptions` URL for POST /ai/transcribe; unset: `unavailable: true`. */
  TRANSCRIBE_URL: operatorEndpoint('TRANSCRIBE_API_KEY'),
  TRANSCRIBE_API_KEY: z.string().min(1).optional(),
  TRANSCRIBE_MODEL: z.string().trim().min(1).max(200).default('whisper-1'),
  /** Processing time-out of one transcription (spec: about 20 s). */
  TRANSCRIBE_TIMEOUT_MS: integer(100, 120_000, 20_000),
  /** Days POST /search/events counters (clicks per place and day, searches per query and day) are kept. */
  SEARCH_EVENT_RETENTION_DAYS: integer(1, 365, 30),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: integer(1024, 256 * 1024 * 1024, DEFAULT_BODY_LIMIT_BYTES),
  /** Solver worker threads; 0 = one per core. */
  WORKER_THREADS: integer(0, 64, 0),
  /**
   * Routing tasks (route, matrix, isochrone, map match…) that may wait for a busy worker at once; one more is
   * answered 503 SERVER_BUSY with Retry-After at once. About 1 ms of work per route: 512 is half a second of line.
   */
  SOLVER_QUEUE_LIMIT: integer(1, 1_000_000, 512),
  SHUTDOWN_GRACE_MS: integer(0, 600_000, DEFAULT_SHUTDOWN_GRACE_MS),
  /** Bytes of encoded vector tiles (raw, Brotli and gzip together) kept in memory; least recently used go first. */
  TILE_CACHE_BYTES: integer(0, 16 * 1024 * 1024 * 1024, 64 * 1024 * 1024),
  /**
   * Caps on WebSocket streams (navigation sessions and live fleets together), per server process: open sockets per
   * user, per API key (one key may serve a whole app's devices), per client address (behind TRUSTED_PROXIES), and
   * sockets per address that have not authenticated yet. One more is closed with 4429 (TOO_MANY_STREAMS).
   */
  WS_MAX_PER_USER: integer(1, 1_000_000, 16),
  WS_MAX_PER_KEY: integer(1, 1_000_000, 1_000),
  WS_MAX_PER_IP: integer(1, 1_000_000, 128),
  WS_MAX_UNAUTHENTICATED_PER_IP: integer(1, 1_000_000, 16),
  /** How long a socket that connected without credentials has to send its `auth` message; then it is closed with 4401. */
  WS_AUTH_TIMEOUT_MS: integer(100, 600_000, 10_000),
  /**
   * Imagery tiles of the `satellite` style, an XYZ template with `{z}`, `{x}`, `{y}` (e.g.
   * `https://imagery.example.com/{z}/{y}/{x}.jpg`); browsers fetch it directly. Unset = our placeholder JPEG.
   */
  SATELLITE_TILE_URL: tileTemplate(),
  /** The imagery provider's credit, shown in the satellite source's own `attribution`; required with SATELLITE_TILE_URL. */
  SATELLITE_ATTRIBUTION: optionalText(),
  SATELLITE_MAX_ZOOM: integer(0, 24, 19),
  /** Elevation tiles (raster-dem, XYZ template) for `GET /tiles/style?style=3d&terrain=1`; unset = no elevation is offered. */
  TERRAIN_DEM_TILE_URL: tileTemplate(),
  /** How heights are packed in the DEM PNGs: `terrarium` (AWS/Mapzen) or `mapbox` (Terrain-RGB). */
  TERRAIN_DEM_ENCODING: z.enum(['terrarium', 'mapbox']).default('terrarium'),
  /** The elevation data's credit; required with TERRAIN_DEM_TILE_URL. */
  TERRAIN_DEM_ATTRIBUTION: optionalText(),
  TERRAIN_DEM_MAX_ZOOM: integer(0, 20, 12),
  /** A Valhalla-compatible routing server the routing endpoints pass through to; unset = the built-in engine. */
  ROUTING_ENGINE_URL: optionalUrl(['http:', 'https:']),
  /** Time budget of one routing computation (route, matrix, isochrone, map match); past it the task is cancelled. */
  ROUTING_TIMEOUT_MS: integer(100, 600_000, DEFAULT_ROUTING_TIMEOUT_MS),
  READY_TIMEOUT_MS: integer(50, 60_000, DEFAULT_READY_TIMEOUT_MS),
  /**
   * Longest one SQL statement on Postgres may take, waiting for a connection included; past it the request answers
   * 503 DATABASE_UNAVAILABLE. Bounds requests while the database is unreachable (docs/reliability.md).
   */
  DATABASE_TIMEOUT_MS: integer(100, 600_000, 10_000),
  /**
   * Webhook hosts exempt from the SSRF address check (comma separated `host` or `host:port`, e.g. `127.0.0.1`
   * for a local test receiver); they may also use plain http. Empty (the default) in production.
   */
  /**
   * Shared micromobility feeds (docs/transit.md): comma-separated GBFS 2.x/3.x
   * `gbfs.json` discovery URLs (https) or local paths to a gbfs.json. Empty (the
   * default): /transit/gbfs answers an empty collection.
   */
  GBFS_FEEDS: z
    .string()
    .optional()
    .transform((value) => (value ? value.split(',').map((entry) => entry.trim()).filter(Boolean) : [])),
  /**
   * `host` or `host:port` entries whose GBFS URLs may resolve to private
   * addresses and use plain http (a local test feed). Empty (the default) in production.
   */
  GBFS_ALLOWED_HOSTS: z
    .string()
    .optional()
    .transform((value) => (value ? value.split(',').map((entry) => entry.trim().toLowerCase()).filter(Boolean) : [])),
  /**
   * An Open-Meteo-compatible forecast endpoint (e.g. `https://api.open-meteo.com/v1/forecast`) the analysed-traffic
   * endpoints (docs/traffic.md) and the map's weather layer, point weather and weather risk (docs/map-data.md) read.
   * Unset (the default): no weather is assumed, and the weather endpoints answer `hasData: false`.
   */
  WEATHER_URL: optionalUrl(['http:', 'https:']),
  /**
   * How long a trip processor holds a contributed trip (ms): its claim's lease and the work queue's ack wait. A
   * processor that dies mid-trip has the trip delivered to another after this long (docs/traffic.md, Intake).
   */
  TRAFFIC_TRIP_LEASE_MS: integer(1_000, 3_600_000, 60_000),
  /**
   * `host` or `host:port` entries the weather provider may use over plain http and on a private address (a local
   * test server). Empty (the default) in production: the provider must be a public https host.
   */
  WEATHER_ALLOWED_HOSTS: z
    .string()
    .optional()
    .transform((value) => (value ? value.split(',').map((entry) => entry.trim().toLowerCase()).filter(Boolean) : [])),
  /**
   * Shifts the clock of commute advice and leave-now alerts by this many milliseconds (tests and drills:
   * "it is 07:40 on a Monday in Amman"); refused in production.
   */
  COMMUTE_CLOCK_OFFSET_MS: z.coerce.number().int().min(-366 * 86_400_000).max(366 * 86_400_000).default(0),
  /** How often each process looks for commutes whose leave-now moment has come. */
  COMMUTE_ALERT_INTERVAL_MS: integer(100, 3_600_000, 30_000),
  /** Web Push VAPID keys (URL-safe base64, as `web-push generate-vapid-keys` prints) and subject (mailto: or https:); all three or none. */
  VAPID_PUBLIC_KEY: z.string().trim().min(1).optional(),
  VAPID_PRIVATE_KEY: z.string().trim().min(1).optional(),
  VAPID_SUBJECT: z.string().trim().regex(/^(mailto:|https:\/\/)/, 'must start with mailto: or https://').optional(),
  /** FCM HTTP v1 send URL (`https://fcm.googleapis.com/v1/projects/<id>/messages:send`) and its bearer credential; unset = android tokens are not attempted. */
  PUSH_FCM_URL: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined))
    .refine((value) => value === undefined || isHttpsOrLoopback(value), { message: 'must be an https URL (http only on loopback)' }),
  PUSH_FCM_TOKEN: z.string().min(1).optional(),
  /** An APNs provider base URL (`/3/device/<token>` is appended; an HTTP/1.1 gateway) and its bearer credential; unset = ios tokens are not attempted. */
  PUSH_APNS_URL: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined))
    .refine((value) => value === undefined || isHttpsOrLoopback(value), { message: 'must be an https URL (http only on loopback)' }),
  PUSH_APNS_TOKEN: z.string().min(1).optional(),
  PUSH_APNS_TOPIC: z.string().trim().min(1).optional(),
  /** How often each process polls the push outbox (it is also woken when it writes a notification itself). */
  PUSH_POLL_MS: integer(50, 600_000, 2_000),
  /** Wait before a push's 2nd attempt (each later one doubles, up to 15 min); 6 attempts within 1 h. */
  PUSH_RETRY_INITIAL_MS: integer(10, 600_000, 5_000),
  WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .optional()
    .transform((value) => (value ? value.split(',').map((entry) => entry.trim().toLowerCase()).filter(Boolean) : []))
    .refine((entries) => entries.every((entry) => /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/.test(entry)), {
      message: 'must be host or host:port entries separated by commas (IPv6 in brackets)',
    }),
  /**
   * Tests only: a file holding a number of milliseconds added to the clock of incidents, feedback and
   * road edits (expiry, 60-day avoidances), read on every reading of that clock, so a black-box test can
   * travel in time. Unset (the default) = the wall clock. See docs/incidents-feedback.md.
   */
  CLOCK_OFFSET_FILE: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : undefined)),
});

export type Config = Readonly<z.infer<typeof configSchema>>;

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n  ${issues.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment once; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = configSchema
    .superRefine((config, context) => {
      // Behind TLS and proxies the Host header is neither trustworthy nor https: production names its origin.
      if (config.NODE_ENV === 'production' && config.OIDC_PROVIDERS.length > 0 && !config.PUBLIC_BASE_URL) {
        context.addIssue({ code: 'custom', path: ['PUBLIC_BASE_URL'], message: 'is required in production when OIDC_PROVIDERS are configured' });
      }
      // processes sharing a port must share their state: embedded stores would give each its own accounts, quotas and sessions
      const embedded = [!config.DATABASE_URL && 'DATABASE_URL', !config.REDIS_URL && 'REDIS_URL', !config.NATS_URL && 'NATS_URL'].filter(Boolean);
      if (config.REUSE_PORT && embedded.length > 0) {
        context.addIssue({ code: 'custom', path: ['REUSE_PORT'], message: `needs shared state: set ${embedded.join(', ')} (processes on one port cannot share embedded stores)` });
      }
      if (config.REUSE_PORT && config.PORT === 0) {
        context.addIssue({ code: 'custom', path: ['REUSE_PORT'], message: 'needs a named PORT (port 0 gives every process a port of its own)' });
      }
      // Half a captcha is either a form whose tokens nobody checks or a check the form cannot pass.
      const captcha = { CAPTCHA_SITE_KEY: config.CAPTCHA_SITE_KEY, CAPTCHA_SECRET: config.CAPTCHA_SECRET, CAPTCHA_VERIFY_URL: config.CAPTCHA_VERIFY_URL };
      const captchaSet = Object.entries(captcha).filter(([, value]) => value !== undefined).map(([name]) => name);
      if (captchaSet.length > 0 && captchaSet.length < 3) {
        for (const [name, value] of Object.entries(captcha)) {
          if (value === undefined) context.addIssue({ code: 'custom', path: [name], message: `is required with ${captchaSet.join(' and ')} (captcha needs site key, secret and verify URL together)` });
        }
      }
      // third-party tiles are shown only with their provider's credit (part 2 §4.7 rule 6)
      if (config.SATELLITE_TILE_URL && !config.SATELLITE_ATTRIBUTION) {
        context.addIssue({ code: 'custom', path: ['SATELLITE_ATTRIBUTION'], message: "is required with SATELLITE_TILE_URL (the imagery provider's credit)" });
      }
      if (config.TERRAIN_DEM_TILE_URL && !config.TERRAIN_DEM_ATTRIBUTION) {
        context.addIssue({ code: 'custom', path: ['TERRAIN_DEM_ATTRIBUTION'], message: "is required with TERRAIN_DEM_TILE_URL (the elevation data's credit)" });
      }
      if (config.NODE_ENV === 'production' && config.COMMUTE_CLOCK_OFFSET_MS !== 0) {
        context.addIssue({ code: 'custom', path: ['COMMUTE_CLOCK_OFFSET_MS'], message: 'must be 0 in production (it is for tests and drills)' });
      }
      const vapid = { VAPID_PUBLIC_KEY: config.VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: config.VAPID_PRIVATE_KEY, VAPID_SUBJECT: config.VAPID_SUBJECT };
      const vapidSet = Object.entries(vapid).filter(([, value]) => value !== undefined).map(([name]) => name);
      if (vapidSet.length > 0 && vapidSet.length < 3) {
        for (const [name, value] of Object.entries(vapid)) if (value === undefined) context.addIssue({ code: 'custom', path: [name], message: `is required with ${vapidSet.join(' and ')} (Web Push needs both keys and a subject)` });
      }
      if (config.METRICS_PORT !== undefined && config.METRICS_PORT !== 0 && config.METRICS_PORT === config.PORT) {
        context.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'must differ from PORT (metrics are never served on the API port)' });
      }
    })
    .safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`),
    );
  }
  return Object.freeze(parsed.data);
}
