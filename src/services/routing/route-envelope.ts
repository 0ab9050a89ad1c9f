/**
 * The head of the POST /routing/route answer: the envelope's JSON text up to its `data` value. A solver worker
 * writes the rest around the trip it built (solvers/routing/route-answer.ts), so that the answer is exactly
 * `JSON.stringify({ ...availableEnvelope(path, { trip, alternates?, id? }), labels })`.
 */
import { availableEnvelope } from './engine-envelope.js';

const heads = new Map<string, string>();

export function routeAnswerHead(path: string): string {
  let head = heads.get(path);
  if (head === undefined) {
    head = JSON.stringify(availableEnvelope(path, null)).slice(0, -'null}'.length);
    heads.set(path, head);
  }
  return head;
}
