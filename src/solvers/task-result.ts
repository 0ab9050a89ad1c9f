/**
 * What every solver task returns across the worker boundary. Errors are values:
 * an Error subclass does not survive structured cloning, and an infeasible
 * problem is an answer, not an exception.
 */
export type TaskResult<T> = { ok: true; value: T } | { ok: false; code: string; details?: Record<string, unknown> };

export const ok = <T>(value: T): TaskResult<T> => ({ ok: true, value });
export const fail = (code: string, details?: Record<string, unknown>): TaskResult<never> => ({ ok: false, code, details });
