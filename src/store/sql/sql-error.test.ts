import { describe, expect, it } from 'vitest';
import { unavailableDependencyError } from '../../shared/errors.js';
import { isConnectionFailure, SqlError, STATEMENT_TIMEOUT } from './sql-error.js';

describe('SqlError', () => {
  it('marks a database that cannot be reached as an outage (503 with Retry-After), not a fault', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'CONNECT_TIMEOUT', 'CONNECTION_CLOSED', '08006', '57P01', '57P03', '53300', STATEMENT_TIMEOUT]) {
      const error = new SqlError(Object.assign(new Error('gone'), { code }), 'select 1');
      expect(error.unavailableDependency, code).toBe('database');
      const answer = unavailableDependencyError(error);
      expect(answer, code).toMatchObject({ code: 'DATABASE_UNAVAILABLE', statusCode: 503, details: { dependency: 'database' }, headers: { 'retry-after': '5' } });
    }
  });

  it('leaves a failed statement a fault (a 500 with its stack logged)', () => {
    for (const code of ['23505', '42P01', '22P02', '40001', undefined]) {
      const error = new SqlError(Object.assign(new Error('bad'), { code }), 'insert into t values ($1)');
      expect(error.unavailableDependency, String(code)).toBeUndefined();
      expect(unavailableDependencyError(error), String(code)).toBeUndefined();
      expect(isConnectionFailure(code)).toBe(false);
    }
    expect(unavailableDependencyError(new Error('plain'))).toBeUndefined();
    expect(unavailableDependencyError(undefined)).toBeUndefined();
  });
});
