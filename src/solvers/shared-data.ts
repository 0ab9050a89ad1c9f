/**
 * Big read-only data (the road graph, indexes) handed to every worker once as
 * SharedArrayBuffers: the memory is shared, never copied per task.
 */
export type SharedDataSet = Readonly<Record<string, SharedArrayBuffer>>;

/** Copies bytes into a new SharedArrayBuffer (used once when a data pack is loaded). */
export function toSharedBuffer(bytes: Uint8Array): SharedArrayBuffer {
  const shared = new SharedArrayBuffer(bytes.byteLength);
  new Uint8Array(shared).set(bytes);
  return shared;
}
