import type { DependencyFailure } from '../../shared/errors.js';

/**
 * A statement that failed, as every SqlClient throws it. The drivers' own errors carry the statement's parameters
 * (PGlite's `params`, postgres.js's `parameters`) and the server's `detail` line, which quotes row values: logged as
 * they were, a failed insert put a password hash and its e-mail, a key hash or a push token into the log. This one
 * keeps what names the failure and nothing the caller sent: the SQLSTATE code, the statement, the identifiers the
 * server names (constraint, table, column) and its message, cut before the value where data exceptions quote one.
 */
export class SqlError extends Error implements DependencyFailure {
  /** Set when the database could not be reached at all (see `isConnectionFailure`): the edge answers 503, not 500. */
  readonly unavailableDependency: 'database' | undefined;
  /** SQLSTATE (e.g. `23505`), or the driver's own code for a failure before the server answered (`ECONNREFUSED`). */
  readonly code: string | undefined;
  /** The statement's opening, whitespace collapsed: which query failed. Parameters are bound, so it holds no data. */
  readonly statement: string;
  readonly constraint: string | undefined;
  readonly table: string | undefined;
  readonly column: string | undefined;

  constructor(driverError: unknown, text: string) {
    const fields = (driverError ?? {}) as Record<string, unknown>;
    const code = typeof fields.code === 'string' ? fields.code : undefined;
    super(safeMessage(code, driverError instanceof Error ? driverError.message : String(driverError)));
    this.name = 'SqlError';
    this.code = code;
    this.statement = statementOf(text);
    // PGlite names them `constraint`, `table`, `column`; postgres.js `constraint_name`, `table_name`, `column_name`
    this.constraint = stringField(fields, 'constraint', 'constraint_name');
    this.table = stringField(fields, 'table', 'table_name');
    this.column = stringField(fields, 'column', 'column_name');
    this.unavailableDependency = isConnectionFailure(code) ? 'database' : undefined;
  }
}

/**
 * Failures that say the database could not be reached, not that the statement was wrong: the socket's own errors,
 * postgres.js's connection codes, a statement past the client's deadline, SQLSTATE class 08 (connection exception), 57P01–57P03 (the server is shutting
 * down, crashed or starting) and 53300 (too many connections). Waiting and retrying is the answer to each.
 */
export function isConnectionFailure(code: string | undefined): boolean {
  if (code === undefined) return false;
  return CONNECTION_FAILURE_CODES.has(code) || code.startsWith('08');
}

/**
 * `statement`'s rows, or undefined when it failed a foreign-key check (23503) on `constraint` because the parent
 * was deleted concurrently: an `insert … select … from parent where …` sees the parent in its snapshot, then the key
 * check finds it gone once the deleting transaction commits. The caller answers it as the parent not found.
 */
export async function unlessParentDeleted<T>(statement: Promise<T>, constraint: string): Promise<T | undefined> {
  try {
    return await statement;
  } catch (error) {
    if (error instanceof SqlError && error.code === '23503' && error.constraint === constraint) return undefined;
    throw error;
  }
}

/** Our own code for a statement past the Postgres client's deadline (postgres-client.ts): the database did not answer. */
export const STATEMENT_TIMEOUT = 'STATEMENT_TIMEOUT';

const CONNECTION_FAILURE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  STATEMENT_TIMEOUT,
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

/** How much of a statement names it in a log line. */
const STATEMENT_CHARS = 120;

function statementOf(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed.length > STATEMENT_CHARS ? `${collapsed.slice(0, STATEMENT_CHARS)}…` : collapsed;
}

/** Data exceptions (SQLSTATE class 22) quote the offending value after a colon: `invalid input syntax for type uuid: "…"`. */
function safeMessage(code: string | undefined, message: string): string {
  if (code?.startsWith('22')) {
    const colon = message.indexOf(':');
    return colon < 0 ? message : message.slice(0, colon);
  }
  return message;
}

function stringField(fields: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) if (typeof fields[name] === 'string') return fields[name];
  return undefined;
}
