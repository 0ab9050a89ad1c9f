/**
 * The Gilmore–Gomory LP bound for identical bins, by column generation: the
 * master LP "fewest bins, each a feasible pattern (counts per distinct size),
 * covering every demand" over the patterns found so far (a revised simplex
 * with a dense basis inverse), priced by a bounded knapsack over the duals.
 *
 * The bound is Farley's, valid at every pricing round, not only at the end:
 * for duals y ≥ 0 whose best pattern is worth K = max Σ yᵢaᵢ, the prices y/K
 * are dual feasible, so every packing needs at least Σ dᵢyᵢ / max(K, 1) bins.
 * Those scaled prices are the certificate (`prices`): anyone can check the
 * bound with their own knapsack. The LP is solved with floating point, but the
 * certificate's validity only needs K computed correctly (an exact knapsack, or
 * its Dantzig upper bound when the knapsack gives up), so rounding in the
 * simplex can weaken the bound, never make it wrong. Effort is bounded by work
 * (basis-update operations of the simplex plus knapsack cells or nodes),
 * never by time.
 */

const EPSILON = 1e-9;
/** Reduced costs below −this enter the basis; pattern values above 1 + this are priced in. */
const PRICE_TOLERANCE = 1e-9;
/** The bound is rounded up only past this margin (floating-point sums). */
const ROUND_MARGIN = 1e-6;
/** Pivots between refactorisations of the basis inverse (Gauss–Jordan from the basis columns). */
const REFACTOR_EVERY = 100;
/** Largest (integer) capacity priced by dynamic programming. */
const MAX_DP_ROOM = 100_000;

export interface Pattern {
  /** Count per distinct size (index into `sizes`). */
  counts: number[];
  /** LP value of the pattern in the last master solution. */
  value: number;
}

export interface LpBoundResult {
  /** Distinct item sizes, decreasing, and how many items have each. */
  sizes: number[];
  demands: number[];
  /** Dual prices per size, scaled so that no pattern is worth more than 1: the certificate of `bound`. */
  prices: number[];
  /** Σ demand × price: every packing needs at least this many bins. */
  bound: number;
  /** ⌈bound⌉ (with a small margin for rounding in the sums). */
  bins: number;
  /** The master LP's value at the end (≥ the LP optimum; equal to it when `complete`). */
  value: number;
  /** The LP was solved to optimality (no pattern prices in). */
  complete: boolean;
  /** Patterns with a positive value in the last master solution. */
  patterns: Pattern[];
  /** Work spent: simplex basis-update operations plus knapsack cells or nodes. */
  work: number;
}

export interface LpBoundOptions {
  /** Work allowed (simplex operations + knapsack cells or nodes). */
  maxWork: number;
  /** Stop once ⌈bound⌉ reaches this (nothing more is needed). */
  target?: number;
  /** Patterns to start from (counts per size), e.g. the bins of a heuristic packing. */
  start?: readonly (readonly number[])[];
}

/** Distinct sizes (decreasing) and their demands. */
export function sizeClasses(weights: readonly number[]): { sizes: number[]; demands: number[]; classOf: number[] } {
  const order = weights.map((_, item) => item).sort((a, b) => weights[b]! - weights[a]!);
  const sizes: number[] = [];
  const demands: number[] = [];
  const classOf = new Array<number>(weights.length);
  for (const item of order) {
    const w = weights[item]!;
    if (!sizes.length || Math.abs(sizes[sizes.length - 1]! - w) > EPSILON) {
      sizes.push(w);
      demands.push(0);
    }
    demands[demands.length - 1]!++;
    classOf[item] = sizes.length - 1;
  }
  return { sizes, demands, classOf };
}

/**
 * The column-generation LP bound for `demands[i]` items of size `sizes[i]`
 * (distinct, decreasing, each ≤ capacity) in bins of `capacity`.
 */
export function lpBound(sizes: readonly number[], demands: readonly number[], capacity: number, options: LpBoundOptions): LpBoundResult {
  const m = sizes.length;
  const master = new Master(m, demands);
  const pricing = new Knapsack(sizes, demands, capacity);
  // Start: one pattern per size (as many as fit), plus the given ones.
  for (let i = 0; i < m; i++) {
    const counts = new Array<number>(m).fill(0);
    counts[i] = Math.max(1, Math.min(demands[i]!, Math.floor((capacity + EPSILON) / sizes[i]!)));
    master.addColumn(counts);
  }
  master.startDiagonal();
  for (const counts of options.start ?? []) master.addColumn(counts.slice());

  let work = 0;
  let best = { bound: 0, prices: new Array<number>(m).fill(0) };
  let complete = false;
  const target = options.target ?? Infinity;
  for (;;) {
    // Optimise the master over the columns it has.
    while (work < options.maxWork) {
      const entering = master.entering();
      if (entering === null) break;
      if (!master.pivot(entering)) break;
      work += master.pivotWork();
    }
    if (work >= options.maxWork) break;
    const duals = master.duals().map((y) => Math.max(0, y));
    const priced = pricing.best(duals, Math.max(1, options.maxWork - work));
    work += pricing.nodes;
    const scale = Math.max(1, priced.upper);
    const bound = duals.reduce((sum, y, i) => sum + y * demands[i]!, 0) / scale;
    if (bound > best.bound) best = { bound, prices: duals.map((y) => y / scale) };
    if (priced.value <= 1 + PRICE_TOLERANCE) {
      complete = priced.exact;
      break;
    }
    // Nothing more to gain: the bound already rounds up to the master's value, or to the target.
    const bins = Math.ceil(best.bound - ROUND_MARGIN);
    if (bins >= target || bins >= Math.ceil(master.value() - ROUND_MARGIN)) break;
    if (!priced.counts || work >= options.maxWork) break;
    master.addColumn(priced.counts);
  }
  const bins = Math.max(0, Math.ceil(best.bound - ROUND_MARGIN));
  return {
    sizes: sizes.slice(),
    demands: demands.slice(),
    prices: best.prices,
    bound: best.bound,
    bins,
    value: master.value(),
    complete,
    patterns: master.solution(),
    work,
  };
}

/** The restricted master LP: min Σ x_p subject to Σ a_ip x_p − s_i = d_i, x, s ≥ 0 (revised simplex). */
class Master {
  private readonly columns: number[][] = [];
  /** The columns' nonzero rows and counts, and whether each is basic (pricing reads these). */
  private readonly sparse: { rows: number[]; counts: number[] }[] = [];
  private readonly inBasis: number[] = [];
  private readonly surplusInBasis: Uint8Array;
  /** basis[r]: column index, or −(i + 1) for the surplus of row i. */
  private basis: number[] = [];
  private inverse: Float64Array;
  private x: Float64Array;
  private pivots = 0;

  constructor(
    private readonly m: number,
    private readonly demands: readonly number[],
  ) {
    this.inverse = new Float64Array(m * m);
    this.x = new Float64Array(m);
    this.surplusInBasis = new Uint8Array(m);
  }

  /** Work of one pricing pass and pivot: the basis inverse update (m²) and the columns priced. */
  pivotWork(): number {
    return this.m * this.m + this.sparse.length * 8;
  }

  private setBasic(c: number, basic: boolean): void {
    if (c < 0) this.surplusInBasis[-c - 1] = basic ? 1 : 0;
    else this.inBasis[c] = basic ? 1 : 0;
  }

  addColumn(counts: number[]): void {
    this.columns.push(counts);
    const rows: number[] = [];
    const values: number[] = [];
    counts.forEach((count, i) => {
      if (count) {
        rows.push(i);
        values.push(count);
      }
    });
    this.sparse.push({ rows, counts: values });
    this.inBasis.push(0);
  }

  /** The first m columns (one size each) as the starting basis. */
  startDiagonal(): void {
    this.basis = Array.from({ length: this.m }, (_, i) => i);
    this.basis.forEach((c) => this.setBasic(c, true));
    this.refactor();
  }

  value(): number {
    let sum = 0;
    for (let r = 0; r < this.m; r++) if (this.basis[r]! >= 0) sum += this.x[r]!;
    return sum;
  }

  duals(): number[] {
    const { m, inverse } = this;
    const y = new Array<number>(m).fill(0);
    for (let r = 0; r < m; r++) {
      if (this.basis[r]! < 0) continue;
      for (let j = 0; j < m; j++) y[j]! += inverse[r * m + j]!;
    }
    return y;
  }

  /** Most negative reduced cost among the columns and surpluses not in the basis (Dantzig), or null. */
  entering(): number | null {
    const y = this.duals();
    const inBasis = this.inBasis;
    let chosen: number | null = null;
    let most = -PRICE_TOLERANCE;
    for (let i = 0; i < this.m; i++) {
      if (!this.surplusInBasis[i] && y[i]! < most) {
        most = y[i]!;
        chosen = -(i + 1);
      }
    }
    for (let c = 0; c < this.sparse.length; c++) {
      if (inBasis[c]) continue;
      const { rows, counts } = this.sparse[c]!;
      let reduced = 1;
      for (let k = 0; k < rows.length; k++) reduced -= y[rows[k]!]! * counts[k]!;
      if (reduced < most) {
        most = reduced;
        chosen = c;
      }
    }
    return chosen;
  }

  /** Brings `entering` into the basis (ratio test); false when the direction is unbounded. */
  pivot(entering: number): boolean {
    const { m, inverse, x } = this;
    const u = this.direction(entering);
    let leave = -1;
    let ratio = Infinity;
    for (let r = 0; r < m; r++) {
      if (u[r]! <= 1e-9) continue;
      const t = Math.max(0, x[r]!) / u[r]!;
      if (t < ratio - 1e-12 || (t <= ratio + 1e-12 && leave >= 0 && u[r]! > u[leave]!)) {
        ratio = t;
        leave = r;
      }
    }
    if (leave < 0) return false;
    const p = u[leave]!;
    for (let j = 0; j < m; j++) inverse[leave * m + j]! /= p;
    x[leave]! /= p;
    for (let r = 0; r < m; r++) {
      if (r === leave || u[r] === 0) continue;
      const f = u[r]!;
      for (let j = 0; j < m; j++) inverse[r * m + j]! -= f * inverse[leave * m + j]!;
      x[r]! -= f * x[leave]!;
    }
    this.setBasic(this.basis[leave]!, false);
    this.basis[leave] = entering;
    this.setBasic(entering, true);
    if (++this.pivots % REFACTOR_EVERY === 0) this.refactor();
    return true;
  }

  /** Columns with a positive value. */
  solution(): Pattern[] {
    const out: Pattern[] = [];
    for (let r = 0; r < this.m; r++) {
      const c = this.basis[r]!;
      if (c >= 0 && this.x[r]! > EPSILON) out.push({ counts: this.columns[c]!.slice(), value: this.x[r]! });
    }
    return out;
  }

  private column(c: number): Float64Array {
    const a = new Float64Array(this.m);
    if (c < 0) a[-c - 1] = -1;
    else this.columns[c]!.forEach((count, i) => (a[i] = count));
    return a;
  }

  /** B⁻¹ a for column c. */
  private direction(c: number): Float64Array {
    const { m, inverse } = this;
    const a = this.column(c);
    const u = new Float64Array(m);
    for (let r = 0; r < m; r++) {
      let sum = 0;
      for (let i = 0; i < m; i++) if (a[i]) sum += inverse[r * m + i]! * a[i]!;
      u[r] = sum;
    }
    return u;
  }

  /** B⁻¹ afresh by Gauss–Jordan with partial pivoting, and x = B⁻¹ d. */
  private refactor(): void {
    const { m } = this;
    const b = new Float64Array(m * m);
    this.basis.forEach((c, r) => this.column(c).forEach((value, i) => (b[i * m + r] = value)));
    const inv = new Float64Array(m * m);
    for (let i = 0; i < m; i++) inv[i * m + i] = 1;
    for (let col = 0; col < m; col++) {
      let pivotRow = col;
      for (let r = col + 1; r < m; r++) if (Math.abs(b[r * m + col]!) > Math.abs(b[pivotRow * m + col]!)) pivotRow = r;
      if (Math.abs(b[pivotRow * m + col]!) < 1e-12) return; // singular: keep the updated inverse
      if (pivotRow !== col) {
        for (let j = 0; j < m; j++) {
          [b[col * m + j], b[pivotRow * m + j]] = [b[pivotRow * m + j]!, b[col * m + j]!];
          [inv[col * m + j], inv[pivotRow * m + j]] = [inv[pivotRow * m + j]!, inv[col * m + j]!];
        }
      }
      const p = b[col * m + col]!;
      for (let j = 0; j < m; j++) {
        b[col * m + j]! /= p;
        inv[col * m + j]! /= p;
      }
      for (let r = 0; r < m; r++) {
        if (r === col) continue;
        const f = b[r * m + col]!;
        if (f === 0) continue;
        for (let j = 0; j < m; j++) {
          b[r * m + j]! -= f * b[col * m + j]!;
          inv[r * m + j]! -= f * inv[col * m + j]!;
        }
      }
    }
    this.inverse = inv;
    for (let r = 0; r < m; r++) {
      let sum = 0;
      for (let i = 0; i < m; i++) sum += inv[r * m + i]! * this.demands[i]!;
      this.x[r] = sum;
    }
  }
}

/**
 * Bounded knapsack over the sizes: the pattern worth most at prices y (counts
 * ≤ demands, total size ≤ capacity), by depth-first branch and bound in
 * decreasing price per unit of size with Dantzig's fractional bound.
 */
class Knapsack {
  nodes = 0;
  private order: number[] = [];
  private y: number[] = [];
  private counts: number[] = [];
  private bestValue = 0;
  private bestCounts: number[] | null = null;
  private limit = 0;
  private aborted = false;

  /** Integer sizes and a modest capacity: dynamic programming over the room instead of branch and bound. */
  private readonly integral: boolean;
  private readonly room: number;
  /** Binary split of each demand: (size index, multiplicity) pieces for the 0/1 dynamic programme. */
  private readonly pieces: { size: number; times: number }[] = [];
  private readonly dpCells: number;

  constructor(
    private readonly sizes: readonly number[],
    private readonly demands: readonly number[],
    private readonly capacity: number,
  ) {
    this.room = Math.floor(capacity + EPSILON);
    this.integral = sizes.every((size) => Number.isInteger(size)) && this.room <= MAX_DP_ROOM;
    sizes.forEach((size, i) => {
      let left = Math.min(demands[i]!, Math.floor((this.room + EPSILON) / size));
      for (let times = 1; left > 0; times *= 2) {
        const take = Math.min(times, left);
        this.pieces.push({ size: i, times: take });
        left -= take;
      }
    });
    this.dpCells = this.pieces.length * (this.room + 1);
  }

  /** Exact 0/1 dynamic programme over the binary pieces (work: its cells). */
  private dynamic(y: readonly number[]): { value: number; upper: number; exact: boolean; counts: number[] | null } {
    const { pieces, room, sizes } = this;
    const best = new Float64Array(room + 1);
    const took = new Uint8Array(pieces.length * (room + 1));
    pieces.forEach((piece, p) => {
      const price = y[piece.size]! * piece.times;
      if (price <= 0) return;
      const weight = sizes[piece.size]! * piece.times;
      for (let r = room; r >= weight; r--) {
        const value = best[r - weight]! + price;
        if (value > best[r]! + 1e-12) {
          best[r] = value;
          took[p * (room + 1) + r] = 1;
        }
      }
    });
    this.nodes = this.dpCells;
    let r = 0;
    for (let k = 1; k <= room; k++) if (best[k]! > best[r]! + 1e-12) r = k;
    const value = best[r]!;
    if (value <= 0) return { value: 0, upper: 0, exact: true, counts: null };
    const counts = new Array<number>(sizes.length).fill(0);
    for (let p = pieces.length - 1; p >= 0; p--) {
      if (!took[p * (room + 1) + r]) continue;
      counts[pieces[p]!.size]! += pieces[p]!.times;
      r -= sizes[pieces[p]!.size]! * pieces[p]!.times;
    }
    return { value, upper: value, exact: true, counts };
  }

  /** `value` of the best pattern found, `upper` ≥ every pattern's value (= value when `exact`). */
  best(y: readonly number[], limit: number): { value: number; upper: number; exact: boolean; counts: number[] | null } {
    if (this.integral && this.dpCells <= limit) return this.dynamic(y);
    const { sizes } = this;
    this.y = y.slice();
    this.order = sizes.map((_, i) => i).filter((i) => y[i]! > 0).sort((a, b) => y[b]! / sizes[b]! - y[a]! / sizes[a]! || sizes[b]! - sizes[a]!);
    this.counts = new Array<number>(sizes.length).fill(0);
    this.bestValue = 0;
    this.bestCounts = null;
    this.nodes = 0;
    this.limit = limit;
    this.aborted = false;
    const root = this.fractional(0, this.capacity);
    this.walk(0, this.capacity, 0);
    if (this.aborted) return { value: this.bestValue, upper: Math.max(root, this.bestValue), exact: false, counts: this.bestCounts };
    return { value: this.bestValue, upper: this.bestValue, exact: true, counts: this.bestCounts };
  }

  /** Dantzig's bound: the items from position k on, the last one fractionally. */
  private fractional(k: number, room: number): number {
    let value = 0;
    for (let j = k; j < this.order.length && room > EPSILON; j++) {
      const i = this.order[j]!;
      const take = Math.min(this.demands[i]!, room / this.sizes[i]!);
      value += take * this.y[i]!;
      room -= take * this.sizes[i]!;
    }
    return value;
  }

  private walk(k: number, room: number, value: number): void {
    if (++this.nodes > this.limit) {
      this.aborted = true;
      return;
    }
    if (value > this.bestValue + 1e-12) {
      this.bestValue = value;
      this.bestCounts = this.counts.slice();
    }
    if (k === this.order.length) return;
    if (value + this.fractional(k, room) <= this.bestValue + 1e-12) return;
    const i = this.order[k]!;
    const most = Math.min(this.demands[i]!, Math.floor((room + EPSILON) / this.sizes[i]!));
    for (let c = most; c >= 0; c--) {
      this.counts[i] = c;
      this.walk(k + 1, room - c * this.sizes[i]!, value + c * this.y[i]!);
      if (this.aborted) break;
    }
    this.counts[i] = 0;
  }
}
