import { randomBytes } from 'node:crypto';
import type { SqlExecutor } from '../sql/sql-client.js';

/**
 * Returns the named server secret, creating a random 256-bit one on first use.
 * `on conflict do nothing` + re-read makes concurrent first starts agree on one value.
 */
export async function loadOrCreateServerSecret(sql: SqlExecutor, name: string): Promise<string> {
  await sql.query('insert into server_secrets (name, value) values ($1, $2) on conflict (name) do nothing', [
    name,
    randomBytes(32).toString('base64url'),
  ]);
  const rows = await sql.query<{ value: string }>('select value from server_secrets where name = $1', [name]);
  return rows[0]!.value;
}
