import { describe, expect, it } from 'vitest';
import { createPgliteClient } from './pglite-client.js';
import { createPostgresClient } from './postgres-client.js';

const databaseUrl = process.env.DATABASE_URL;
const unique = (label: string) => `${label}_${process.pid}_${Date.now().toString(36)}`;

describe('SqlClient.sessionLock', () => {
  it('on PGlite is taken at once, while other statements go on, and released once however often asked', async () => {
    const sql = await createPgliteClient({ dataDir: 'memory://', schema: 'session_lock_test' });
    try {
      const lock = await sql.sessionLock('startup-seeding');
      expect(await sql.query('select 1 as one')).toEqual([{ one: 1 }]);
      await lock.release();
      await lock.release();
      const held = await sql.query<{ count: number }>("select count(*)::int as count from pg_locks where locktype = 'advisory'");
      expect(held[0]!.count).toBe(0);
      await (await sql.sessionLock('startup-seeding')).release();
    } finally {
      await sql.close();
    }
  }, 240_000);

  it.skipIf(!databaseUrl)('on Postgres makes a second process of the deployment wait for the first, not another deployment', async () => {
    const schema = unique('session_lock');
    const [first, second, other] = [createPostgresClient({ url: databaseUrl!, schema }), createPostgresClient({ url: databaseUrl!, schema }), createPostgresClient({ url: databaseUrl!, schema: unique('session_lock_other') })];
    try {
      const held = await first.sessionLock('startup-seeding');
      let secondHas = false;
      const waiting = second.sessionLock('startup-seeding').then((lock) => ((secondHas = true), lock));
      await (await other.sessionLock('startup-seeding')).release();
      // the first still runs statements on its pool while the lock is held
      expect(await first.query('select 1 as one')).toEqual([{ one: 1 }]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(secondHas).toBe(false);
      await held.release();
      const lock = await waiting;
      expect(secondHas).toBe(true);
      await lock.release();
    } finally {
      await Promise.all([first.close(), second.close(), other.close()]);
    }
  });
});
