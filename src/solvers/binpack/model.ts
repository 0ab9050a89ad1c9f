export interface BinPackProblem {
  itemWeights: readonly number[];
  binCapacities: readonly number[];
}

export interface BinPackResult {
  feasible: boolean;
  /** assignment[i]: index into binCapacities of the bin holding item i (−1 when infeasible). */
  assignment: number[];
  binsUsed: number;
  /** The bin count is proven minimal (a lower bound meets it, or the search ruled out one bin fewer). */
  optimal: boolean;
  lowerBound: number;
  /** Items heavier than every bin (why the problem is infeasible). */
  oversized: number[];
  /** Exact-search nodes (bin completion or item search). */
  nodes: number;
  /** Local-search work (subset-search nodes of the pool search). */
  work: number;
  /** Work of the column-generation LP (bound and dive): simplex operations plus knapsack cells or nodes. */
  lpWork: number;
}

export interface BinPackOptions {
  /** Search nodes allowed per bin count tried; past it, the best packing found is returned unproven. */
  nodeLimit?: number;
}
