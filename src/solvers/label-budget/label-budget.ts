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
 */
export interface LabelPoints {
  count: number;
  x(index: number): number;
  y(index: number): number;
  priority(index: number): number;
  label(index: number): { width: number; height: number };
}

/** The points of an array of candidates. */
export function pointsOf(candidates: readonly LabelCandidate[]): LabelPoints {
  return {
    count: candidates.length,
    x: (index) => candidates[index]!.x,
    y: (index) => candidates[index]!.y,
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

class BoxGrid {
  private readonly buckets = new Map<number, ScreenBox[]>();

  private keysOf(box: ScreenBox, visit: (key: number) => boolean | void): boolean {
    const x0 = Math.floor(box[0] / BUCKET_PX);
    const x1 = Math.floor(box[2] / BUCKET_PX);
    const y0 = Math.floor(box[1] / BUCKET_PX);
    const y1 = Math.floor(box[3] / BUCKET_PX);
    for (let bx = x0; bx <= x1; bx++) {
      // an offset keeps keys of boxes left of or above the viewport distinct and non-negative
      for (let by = y0; by <= y1; by++) if (visit((bx + 4_096) * 8_192 + (by + 4_096)) === true) return true;
    }
    return false;
  }

  collides(box: ScreenBox): boolean {
    return this.keysOf(box, (key) => this.buckets.get(key)?.some((other) => box[0] < other[2] && other[0] < box[2] && box[1] < other[3] && other[1] < box[3]));
  }

  insert(box: ScreenBox): void {
    this.keysOf(box, (key) => {
      const bucket = this.buckets.get(key);
      if (bucket) bucket.push(box);
      else this.buckets.set(key, [box]);
    });
  }
}

const clampCell = (cell: number) => Math.max(-8_191, Math.min(8_191, cell));
const padded = (box: ScreenBox, pad: number): ScreenBox => [box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad];

/** Chooses what to draw; `points` must be in descending priority (ties in a stable order). */
export function budgetLabels(points: LabelPoints, options: LabelBudgetOptions): LabelBudgetResult {
  const grid = new BoxGrid();
  const pad = options.labelSpacing / 2;
  const half = options.iconSize / 2;
  const placed: PlacedPoint[] = [];
  const overflowIndexes: number[] = [];
  for (let index = 0; index < points.count; index++) {
    if (placed.length >= options.budget) {
      overflowIndexes.push(index);
      continue;
    }
    const x = points.x(index);
    const y = points.y(index);
    const iconBox: ScreenBox = [x - half, y - half, x + half, y + half];
    if (grid.collides(padded(iconBox, pad))) {
      overflowIndexes.push(index);
      continue;
    }
    let labelBox: ScreenBox | null = null;
    const label = points.priority(index) >= options.iconOnlyBelow ? points.label(index) : undefined;
    if (label && label.width > 0) {
      const top = y - label.height / 2;
      const bottom = y + label.height / 2;
      const right: ScreenBox = [x + half + LABEL_GAP_PX, top, x + half + LABEL_GAP_PX + label.width, bottom];
      const left: ScreenBox = [x - half - LABEL_GAP_PX - label.width, top, x - half - LABEL_GAP_PX, bottom];
      const sides = options.rightToLeft ? [left, right] : [right, left];
      labelBox = sides.find((side) => !grid.collides(padded(side, pad))) ?? null;
    }
    grid.insert(padded(iconBox, pad));
    if (labelBox) grid.insert(padded(labelBox, pad));
    placed.push({ index, iconBox, labelBox });
  }
  return { placed, clusters: clusterByGrid(points, overflowIndexes, options.clusterRadius), overflow: overflowIndexes.length };
}

function clusterByGrid(points: LabelPoints, indexes: readonly number[], cell: number): PointCluster[] {
  const size = Math.max(1, cell);
  const cells = new Map<number, { sumX: number; sumY: number; members: number[] }>();
  for (const index of indexes) {
    const x = points.x(index);
    const y = points.y(index);
    // small-integer keys hash fast; a bbox far larger than its viewport can put cells past ±8 191,
    // where the outermost cells merge (nothing that far off-screen is shown anyway)
    const key = (clampCell(Math.floor(x / size)) + 8_192) * 16_384 + (clampCell(Math.floor(y / size)) + 8_192);
    const found = cells.get(key);
    if (found) {
      found.sumX += x;
      found.sumY += y;
      found.members.push(index);
    } else cells.set(key, { sumX: x, sumY: y, members: [index] });
  }
  return [...cells.values()].map((found) => ({ x: found.sumX / found.members.length, y: found.sumY / found.members.length, members: found.members }));
}
