import { readFileSync } from 'node:fs';
import type { VrpProblem } from '../src/solvers/vrp/model.js';

/** One Solomon VRPTW instance: node 0 is the depot; times and distances are Euclidean, unrounded (as in the literature). */
export interface SolomonInstance {
  name: string;
  vehicles: number;
  capacity: number;
  customers: { id: number; x: number; y: number; demand: number; ready: number; due: number; service: number }[];
}

/** Parses the original Solomon text format (name, VEHICLE block, CUSTOMER table). */
export function parseSolomon(text: string): SolomonInstance {
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  const name = lines.find((line) => line.length > 0);
  if (!name) throw new Error('empty Solomon file');
  const vehicleHeader = lines.findIndex((line) => /^NUMBER\s+CAPACITY/i.test(line));
  if (vehicleHeader < 0) throw new Error(`${name}: no VEHICLE block`);
  const [vehicles, capacity] = lines[vehicleHeader + 1]!.split(/\s+/).map(Number);
  const customerHeader = lines.findIndex((line) => /^CUST\s+NO\./i.test(line));
  if (customerHeader < 0) throw new Error(`${name}: no CUSTOMER table`);
  const customers = lines
    .slice(customerHeader + 1)
    .filter((line) => line.length > 0)
    .map((line) => {
      const fields = line.split(/\s+/).map(Number);
      if (fields.length !== 7 || fields.some((value) => !Number.isFinite(value))) throw new Error(`${name}: bad customer line "${line}"`);
      const [id, x, y, demand, ready, due, service] = fields as [number, number, number, number, number, number, number];
      return { id, x, y, demand, ready, due, service };
    });
  if (!Number.isFinite(vehicles) || !Number.isFinite(capacity) || customers[0]?.id !== 0) throw new Error(`${name}: malformed header or depot`);
  return { name, vehicles: vehicles!, capacity: capacity!, customers };
}

export function readSolomon(path: string): SolomonInstance {
  return parseSolomon(readFileSync(path, 'utf8'));
}

/** The instance as a solver problem: the Euclidean matrix is both travel time and cost. */
export function solomonProblem(instance: SolomonInstance): VrpProblem {
  const nodes = instance.customers;
  const n = nodes.length;
  const matrix = new Float64Array(n * n);
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) matrix[a * n + b] = Math.hypot(nodes[a]!.x - nodes[b]!.x, nodes[a]!.y - nodes[b]!.y);
  }
  const depot = nodes[0]!;
  return {
    size: n,
    durations: matrix,
    costs: matrix,
    jobs: nodes.slice(1).map((node, k) => ({ location: k + 1, demand: node.demand, serviceSec: node.service, window: [node.ready, node.due] as const })),
    vehicles: Array.from({ length: instance.vehicles }, () => ({ start: 0, end: 0, capacity: instance.capacity, window: [depot.ready, depot.due] as const })),
  };
}
