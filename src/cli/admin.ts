/**
 * Operator CLI: `npm run admin -- <command> [arguments]`, against the database
 * the environment names (DATABASE_URL, or the embedded one under DATA_DIR).
 *
 *   grant-role <email> <role>          revoke-role <email> <role>
 *   disable <email>                    enable <email>
 *   key-unlimited <keyId> <on|off>     key-quotas <keyId> [--per-minute N] [--per-day N]
 *   broadcast --title T --body B [--url U]
 */
import { parseArgs } from 'node:util';
import { openSql } from '../wiring/backends.js';
import { DataDirInUseError } from '../store/sql/data-dir-lock.js';
import { ApiError } from '../shared/errors.js';
import { ConfigError, loadConfig } from '../shared/config.js';
import { OperatorActions, ROLES, type Role } from '../services/admin/operator-actions.js';
import { applyMigrations } from '../store/sql/migrate.js';
import { migrations } from '../store/sql/migrations/index.js';
import { ApiKeyRepository } from '../store/pg/api-keys.js';
import { NotificationRepository } from '../store/pg/notifications.js';
import { UserRepository } from '../store/pg/users.js';
import { encodeJson } from '../actors/runtime/bus/bus.js';
import { NatsBus } from '../actors/runtime/bus/nats-bus.js';
import { createSubjects } from '../actors/runtime/subjects.js';
import { createLogger } from '../shared/logger.js';

const USAGE = `usage: npm run admin -- <command>
  grant-role <email> <role>        roles: ${ROLES.join(', ')}
  revoke-role <email> <role>
  disable <email> | enable <email>
  key-unlimited <keyId> <on|off>
  key-quotas <keyId> [--per-minute N] [--per-day N]
  broadcast --title TEXT --body TEXT [--url URL]`;

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function roleOf(value: string | undefined): Role {
  if (!value || !(ROLES as readonly string[]).includes(value)) fail(`unknown role "${value ?? ''}"`);
  return value as Role;
}

function positiveInteger(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) fail(`${name} must be a positive integer`);
  return number;
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      'per-minute': { type: 'string' },
      'per-day': { type: 'string' },
      title: { type: 'string' },
      body: { type: 'string' },
      url: { type: 'string' },
    },
  });
  const [command, first, second] = positionals;
  if (!command) fail('no command given');

  const config = loadConfig(process.env);
  const sql = await openSql(config);
  const closers: Array<() => Promise<void>> = [];
  try {
    await applyMigrations(sql, config.DATABASE_SCHEMA, migrations);
    // Running servers cache keys for up to 30 s; with NATS configured they drop a changed key at once.
    const bus = config.NATS_URL ? new NatsBus({ servers: config.NATS_URL, name: 'svc-admin-cli', logger: createLogger({ LOG_LEVEL: 'warn' }) }) : undefined;
    if (bus) await bus.waitUntilConnected(3_000);
    closers.push(async () => {
      await bus?.flush().catch(() => undefined);
      await bus?.close();
    });
    const subject = createSubjects(config.BUS_NAMESPACE).cacheInvalidation('api-keys');
    const actions = new OperatorActions(
      { users: new UserRepository(sql), apiKeys: new ApiKeyRepository(sql), notifications: new NotificationRepository(sql) },
      (change) => {
        try {
          bus?.publish(subject, encodeJson(change));
        } catch {
          process.stderr.write('NATS unavailable: running servers pick the change up within 30 s\n');
        }
      },
    );
    const operator = { kind: 'cli' as const };
    let result: unknown;
    switch (command) {
      case 'grant-role':
      case 'revoke-role': {
        const user = await actions.findUser(first ?? fail('an e-mail is required'));
        result = { email: user.email, roles: await actions.changeRole(operator, user.id, roleOf(second), command === 'grant-role' ? 'grant' : 'revoke') };
        break;
      }
      case 'disable':
      case 'enable': {
        const user = await actions.findUser(first ?? fail('an e-mail is required'));
        const updated = await actions.setAccountDisabled(user.id, command === 'disable');
        result = { email: updated.email, disabled: updated.disabled };
        break;
      }
      case 'key-unlimited':
        if (second !== 'on' && second !== 'off') fail('say on or off');
        result = await actions.setKeyLimits(first ?? fail('a key id is required'), { unlimited: second === 'on' });
        break;
      case 'key-quotas': {
        const limits = {
          quotaPerMinute: positiveInteger(values['per-minute'], '--per-minute'),
          quotaPerDay: positiveInteger(values['per-day'], '--per-day'),
        };
        if (limits.quotaPerMinute === undefined && limits.quotaPerDay === undefined) fail('give --per-minute and/or --per-day');
        result = await actions.setKeyLimits(first ?? fail('a key id is required'), limits);
        break;
      }
      case 'broadcast':
        result = {
          sent: await actions.broadcast({
            title: values.title ?? fail('--title is required'),
            body: values.body ?? fail('--body is required'),
            ...(values.url ? { url: values.url } : {}),
          }),
        };
        break;
      default:
        fail(`unknown command "${command}"`);
    }
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } catch (error) {
    if (error instanceof ApiError) {
      process.stderr.write(`${error.code}: ${error.message}\n`);
      process.exitCode = 1;
      return;
    }
    throw error;
  } finally {
    for (const close of closers) await close();
    await sql.close();
  }
}

main().catch((error: unknown) => {
  const expected = error instanceof ConfigError || error instanceof DataDirInUseError;
  process.stderr.write(`${expected ? error.message : (error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
