/** Travel times between points on a line (|a − b|), row-major: small hand-made problems in tests. */
export function lineMatrix(points: number[]): Float64Array {
  const n = points.length;
  const matrix = new Float64Array(n * n);
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) matrix[a * n + b] = Math.abs(points[a]! - points[b]!);
  return matrix;
}
