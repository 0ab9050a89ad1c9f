/**
 * What every solver task returns across the worker boundary. Errors are values:
 * an Error subclass does not survive structured cloning, and an infeasible
 * problem is an answer, not an exception. A task names its failures, each a
 * code with fields of its own (say `{ ok: false, code: 'no_route', legIndex }`),
 * so the caller reads them typed instead of re-parsing a bag of details.
 */
export interface TaskFailure<C extends string = string> {
  ok: false;
  code: C;
}

/** `F`: the failures the task may answer (any code, when it does not say). */
export type TaskResult<T, F extends TaskFailure = TaskFailure> = { ok: true; value: T } | F;

/** The worker has no map pack in its shared data (a server started without one). */
export type NoMapPack = TaskFailure<'no_map_pack'>;

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
export const fail = <C extends string>(code: C): TaskFailure<C> => ({ ok: false, code });
