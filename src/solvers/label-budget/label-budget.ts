/**
 * Label budgeting for a map viewport (spec part 2 §4.8 `GET /map/poi`): given points already in
 * screen space (CSS pixels from the viewport's top-left) and ordered by priority, choose which to
 * draw, which with a label, and cluster the rest, so that no two drawn things overlap on screen.
 *
 * Greedy in priority order, as map renderers place symbols: a point is drawn when its icon box is
 * free (else it goes to a cluster); it keeps its label when the label box is free on its reading side
 * (right of the icon for left-to-right text, left for right-to-left), else on the other side, else it
 * is drawn icon-only. Boxes are kept padded by half the label spacing, so two boxes at least
 * `labelSpacing` apart never collide. Collision uses a uniform grid of buckets, so a placement costs
 * a few box tests whatever the number of points. Points that are not drawn are grouped by a grid of
 * `clusterRadius` cells (the cluster sits at its members' mean).
 */

export interface LabelCandidate {
  x: number;
  y: number;
  /** Estimated label size in CSS pixels; 0 width: no label. */
  labelWidth: number;
  labelHeight: number;
  priority: number;
}

/**
 * The points to place, as parallel arrays, with labels measured only when a point is drawn: past
 * the budget, thousands of points are only clustered, and measuring them would cost the most.
 * Positions are typed arrays rather than accessors: a double returned from a call that is not
 * inlined is boxed, and boxing thousands of positions per viewport was most of a request's garbage.
 */
export interface LabelPoints {
  /** Screen positions; their length is the number of points. */
  xs: Float64Array;
  ys: Float64Array;
  priority(index: number): number;
  label(index: number): { width: number; height: number };
}

/** The points of an array of candidates. */
export function pointsOf(candidates: readonly LabelCandidate[]): LabelPoints {
  return {
    xs: Float64Array.from(candidates, (candidate) => candidate.x),
    ys: Float64Array.from(candidates, (candidate) => candidate.y),
    priority: (index) => candidates[index]!.priority,
    label: (index) => ({ width: candidates[index]!.labelWidth, height: candidates[index]!.labelHeight }),
  };
}

export interface LabelBudgetOptions {
  /** Viewport size in CSS pixels. */
  width: number;
  height: number;
  /** Most points drawn. */
  budget: number;
  /** Icon box side in CSS pixels. */
  iconSize: number;
  /** Least free space between two drawn boxes. */
  labelSpacing: number;
  /** Cluster grid cell in CSS pixels. */
  clusterRadius: number;
  /** Below this priority a point is drawn without its label. */
  iconOnlyBelow: number;
  /** Right-to-left labels (Arabic) start on the icon's left. */
  rightToLeft: boolean;
}

/** [minX, minY, maxX, maxY] in CSS pixels. */
export type ScreenBox = readonly [number, number, number, number];

export interface PlacedPoint {
  /** Index into the candidates. */
  index: number;
  iconBox: ScreenBox;
  /** Null when drawn icon-only. */
  labelBox: ScreenBox | null;
}

export interface PointCluster {
  x: number;
  y: number;
  /** Indexes into the candidates. */
  members: number[];
}

export interface LabelBudgetResult {
  placed: PlacedPoint[];
  clusters: PointCluster[];
  /** Candidates that were not drawn (clustered). */
  overflow: number;
}

const BUCKET_PX = 64;
/** Gap between an icon and its label. */
const LABEL_GAP_PX = 2;

/** Padded boxes, four numbers each, in buckets of BUCKET_PX cells: a box test touches the few boxes near it. */
class BoxGrid {
  private readonly buckets = new Map<number, number[]>();

  /** Whether [minX, minY, maxX, maxY] grown by `pad` on every side overlaps a box in the grid. */
  collides(minX: number, minY: number, maxX: number, maxY: number, pad: number): boolean {
    const x0 = minX - pad;
    const y0 = minY - pad;
    const x1 = maxX + pad;
    const y1 = maxY + pad;
    const cellX1 = Math.floor(x1 / BUCKET_PX);
    const cellY0 = Math.floor(y0 / BUCKET_PX);
    const cellY1 = Math.floor(y1 / BUCKET_PX);
    for (let cellX = Math.floor(x0 / BUCKET_PX); cellX <= cellX1; cellX++) {
      for (let cellY = cellY0; cellY <= cellY1; cellY++) {
        const bucket = this.buckets.get(bucketKey(cellX, cellY));
        if (bucket === undefined) continue;
        for (let at = 0; at < bucket.length; at += 4) {
          if (x0 < bucket[at + 2]! && bucket[at]! < x1 && y0 < bucket[at + 3]! && bucket[at + 1]! < y1) return true;
        }
      }
    }
    return false;
  }

  /** Adds `box` grown by `pad`. */
  insert(box: ScreenBox, pad: number): void {
    const x0 = box[0] - pad;
    const y0 = box[1] - pad;
    const x1 = box[2] + pad;
    const y1 = box[3] + pad;
    const cellX1 = Math.floor(x1 / BUCKET_PX);
    const cellY0 = Math.floor(y0 / BUCKET_PX);
    const cellY1 = Math.floor(y1 / BUCKET_PX);
    for (let cellX = Math.floor(x0 / BUCKET_PX); cellX <= cellX1; cellX++) {
      for (let cellY = cellY0; cellY <= cellY1; cellY++) {
        const key = bucketKey(cellX, cellY);
        const bucket = this.buckets.get(key);
        if (bucket) bucket.push(x0, y0, x1, y1);
        else this.buckets.set(key, [x0, y0, x1, y1]);
      }
    }
  }
}

/** An offset keeps keys of boxes left of or above the viewport distinct and non-negative. */
const bucketKey = (cellX: number, cellY: number) => (cellX + 4_096) * 8_192 + (cellY + 4_096);

const clampCell = (cell: number) => Math.max(-8_191, Math.min(8_191, cell));

/** Indexes of the points not drawn, reused across calls (the solver is synchronous): thousands a viewport. */
let overflowScratch = new Int32Array(1_024);

/** Chooses what to draw; `points` must be in descending priority (ties in a stable order). */
export function budgetLabels(points: LabelPoints, options: LabelBudgetOptions): LabelBudgetResult {
  const { xs, ys } = points;
  const count = xs.length;
  const grid = new BoxGrid();
  const pad = options.labelSpacing / 2;
  const half = options.iconSize / 2;
  const placed: PlacedPoint[] = [];
  if (overflowScratch.length < count) overflowScratch = new Int32Array(Math.max(count, overflowScratch.length * 2));
  const overflow = overflowScratch;
  let overflowCount = 0;
  for (let index = 0; index < count; index++) {
    if (placed.length >= options.budget) {
      overflow[overflowCount++] = index;
      continue;
    }
    const x = xs[index]!;
    const y = ys[index]!;
    if (grid.collides(x - half, y - half, x + half, y + half, pad)) {
      overflow[overflowCount++] = index;
      continue;
    }
    const iconBox: ScreenBox = [x - half, y - half, x + half, y + half];
    let labelBox: ScreenBox | null = null;
    const label = points.priority(index) >= options.iconOnlyBelow ? points.label(index) : undefined;
    if (label && label.width > 0) {
      const top = y - label.height / 2;
      const bottom = y + label.height / 2;
      const right: ScreenBox = [x + half + LABEL_GAP_PX, top, x + half + LABEL_GAP_PX + label.width, bottom];
      const left: ScreenBox = [x - half - LABEL_GAP_PX - label.width, top, x - half - LABEL_GAP_PX, bottom];
      // the reading side first: right of the icon, or left of it for right-to-left text
      const first = options.rightToLeft ? left : right;
      const second = options.rightToLeft ? right : left;
      if (!grid.collides(first[0], top, first[2], bottom, pad)) labelBox = first;
      else if (!grid.collides(second[0], top, second[2], bottom, pad)) labelBox = second;
    }
    grid.insert(iconBox, pad);
    if (labelBox) grid.insert(labelBox, pad);
    placed.push({ index, iconBox, labelBox });
  }
  return { placed, clusters: clusterByGrid(xs, ys, overflow, overflowCount, options.clusterRadius), overflow: overflowCount };
}

/** Per cluster slot, reused across calls: members, sums of positions, and where its members start. */
let slotScratch = { counts: new Int32Array(256), sumXs: new Float64Array(256), sumYs: new Float64Array(256) };
let slotOfScratch = new Int32Array(1_024);

function clusterByGrid(xs: Float64Array, ys: Float64Array, indexes: Int32Array, count: number, cell: number): PointCluster[] {
  const size = Math.max(1, cell);
  // cell key → slot, slots in the order cells are first met (the clusters' order)
  const slots = new Map<number, number>();
  if (slotOfScratch.length < count) slotOfScratch = new Int32Array(Math.max(count, slotOfScratch.length * 2));
  const slotOf = slotOfScratch;
  for (let at = 0; at < count; at++) {
    const index = indexes[at]!;
    // small-integer keys hash fast; a bbox far larger than its viewport can put cells past ±8 191,
    // where the outermost cells merge (nothing that far off-screen is shown anyway)
    const key = (clampCell(Math.floor(xs[index]! / size)) + 8_192) * 16_384 + (clampCell(Math.floor(ys[index]! / size)) + 8_192);
    let slot = slots.get(key);
    if (slot === undefined) {
      slot = slots.size;
      slots.set(key, slot);
    }
    slotOf[at] = slot;
  }
  const clusterCount = slots.size;
  if (slotScratch.counts.length < clusterCount) {
    const length = Math.max(clusterCount, slotScratch.counts.length * 2);
    slotScratch = { counts: new Int32Array(length), sumXs: new Float64Array(length), sumYs: new Float64Array(length) };
  }
  const { counts, sumXs, sumYs } = slotScratch;
  counts.fill(0, 0, clusterCount);
  for (let at = 0; at < count; at++) {
    const slot = slotOf[at]!;
    // summed in member order from the first member (not from 0, which would turn a -0 into 0): the same means as before
    const seen = counts[slot]!;
    counts[slot] = seen + 1;
    if (seen === 0) {
      sumXs[slot] = xs[indexes[at]!]!;
      sumYs[slot] = ys[indexes[at]!]!;
    } else {
      sumXs[slot]! += xs[indexes[at]!]!;
      sumYs[slot]! += ys[indexes[at]!]!;
    }
  }
  // member lists made at their final size, filled in index order
  const members: number[][] = new Array(clusterCount);
  for (let slot = 0; slot < clusterCount; slot++) members[slot] = new Array<number>(counts[slot]!);
  counts.fill(0, 0, clusterCount);
  for (let at = 0; at < count; at++) {
    const slot = slotOf[at]!;
    members[slot]![counts[slot]!++] = indexes[at]!;
  }
  const clusters: PointCluster[] = new Array(clusterCount);
  for (let slot = 0; slot < clusterCount; slot++) clusters[slot] = { x: sumXs[slot]! / counts[slot]!, y: sumYs[slot]! / counts[slot]!, members: members[slot]! };
  return clusters;
}
