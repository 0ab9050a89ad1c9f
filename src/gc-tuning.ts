/**
 * V8 flags the server sets on itself, before any other module is evaluated (main.ts imports this first; Node
 * does not accept these flags in NODE_OPTIONS, and an operator should not have to remember them).
 *
 * `--no-allocation-site-pretenuring`: under load V8 sees a request's short-lived objects (parsed query, zod
 * results, log line, counter plan) still alive at a scavenge — a hundred requests are in flight at any moment —
 * and starts allocating them straight into the old generation, where only a mark-compact frees them. A GC trace
 * of the geocoding server at 100 connections showed the old generation taking ~4 KB per request with it and
 * ~0.5 KB without, and far fewer mark-compacts. In one A/B pair on a quiet machine (docs/benchmarks.md,
 * "Session 6") every geocode row was faster without it (moving-bias autocomplete 2 306 → 3 853 req/s, p99
 * 119 → 59 ms) and routing unchanged within noise; session 4's navigation A/B was mixed. One pair is thin
 * evidence: re-measure when the machine is quiet, and drop this module if it does not hold.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-allocation-site-pretenuring');
