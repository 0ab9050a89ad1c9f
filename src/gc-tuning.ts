/**
 * V8 flags the server sets on itself, before any other module is evaluated (main.ts imports this first; Node
 * does not accept these flags in NODE_OPTIONS, and an operator should not have to remember them).
 *
 * `--no-allocation-site-pretenuring`: under load V8 sees a request's short-lived objects (parsed query, zod
 * results, log line, counter plan) still alive at a scavenge — a hundred requests are in flight at any moment —
 * and starts allocating them straight into the old generation. They die a millisecond later, but only a
 * mark-compact can free them there: on the geocoding server at 100 connections the old generation then took
 * ~4 KB per request instead of ~0.5 KB, scavenges grew slow (they scan every old object pointing to a young
 * one) and mark-compacts came every few seconds; the pauses of both set the tail latency. Measured in
 * docs/benchmarks.md (geocode, "Pretenuring").
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-allocation-site-pretenuring');
