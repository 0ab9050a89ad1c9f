/**
 * Addresses of the real services the integration tests need. They default to
 * the local loopback services, so a missing service fails the test instead of
 * skipping it; CI exports the same variables explicitly.
 */
export const realServices = {
  databaseUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  natsUrl: process.env.NATS_URL || 'nats://127.0.0.1:4222',
};

/** True when this test run targets the real services (the servers it starts use them). */
export const usingRealServices = Boolean(process.env.DATABASE_URL || process.env.REDIS_URL || process.env.NATS_URL);

/** A name unique to this test, for schemas, key prefixes and subject namespaces. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}

/** The environment of one deployment of several server processes: the real services under names of its own. */
export function sharedDeployment(label: string): Record<string, string> {
  return {
    DATABASE_URL: realServices.databaseUrl,
    REDIS_URL: realServices.redisUrl,
    NATS_URL: realServices.natsUrl,
    DATABASE_SCHEMA: uniqueName(label),
    REDIS_PREFIX: `${uniqueName(label)}:`,
    BUS_NAMESPACE: uniqueName(label),
  };
}

/** Parses a JSON response body for assertions (tests inspect arbitrary shapes). */
export async function readJson(response: Response): Promise<any> {
  return response.json();
}
