/**
 * The piscina entry: every named export is a task, called as
 * `pool.run(input, { name })`. Tasks are pure functions of their input and the
 * shared read-only data; they return TaskResult values and never throw on
 * purpose.
 */
import { workerData } from 'node:worker_threads';
import type { SharedDataSet } from './shared-data.js';
import { describeSharedData as describe } from './diagnostics/describe-shared-data.js';

const shared: SharedDataSet = (workerData as { shared?: SharedDataSet } | undefined)?.shared ?? {};

export function describeSharedData(): ReturnType<typeof describe> {
  return describe(shared);
}
