/**
 * Point-to-segment projection in a local planar frame (metres east and north
 * of the point): accurate to well under a metre over the few hundred metres
 * snapping and tracking look at, and far cheaper than spherical geometry.
 */

/** Where the point (the origin) projects onto segment a→b, as a parameter 0..1 along it. */
export function projectionParameter(ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const squared = dx * dx + dy * dy;
  return squared > 0 ? Math.min(1, Math.max(0, -(ax * dx + ay * dy) / squared)) : 0;
}
