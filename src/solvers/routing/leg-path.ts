/**
 * What the graph search hands to guidance: one leg of a route as the directed
 * pack edges it travels, with the partial first and last edges, and the time
 * and distance the costing gave each piece. Guidance (maneuvers, narrative,
 * shape) needs nothing else from the search.
 */

/** A location as the caller gave it and where it was snapped to the road network. */
export interface SnappedLocation {
  /** The input position (degrees). */
  lat: number;
  lon: number;
  /** The projection onto the edge (degrees). */
  snappedLat: number;
  snappedLon: number;
  /** The directed pack edge the location lies on (for the direction of travel chosen). */
  edge: number;
  /** Position along `edge` in its travel direction, 0 = its source node, 1 = its target node. */
  fraction: number;
  /** Metres between the input and the snapped position. */
  snapDistanceMeters: number;
  /** Valhalla location type: `break` (stop, leg boundary), `through`/`via` (pass without stopping). */
  type: 'break' | 'through' | 'via' | 'break_through';
  /** Optional display name given by the caller. */
  name?: string;
}

export interface LegPath {
  /**
   * Directed pack edges in travel order (`graph.edge*` indexes). The first is entered at
   * `origin.fraction`, the last is left at `destination.fraction`; when origin and destination lie
   * on the same edge the leg has that one edge.
   */
  edges: number[];
  /**
   * Seconds spent on each edge of `edges` (already scaled to the travelled part of the first and
   * last edge), excluding the turn into it.
   */
  edgeSeconds: number[];
  /** Seconds of the turn (and node: signals, stops) into each edge; 0 for the first. */
  turnSeconds: number[];
  /** Metres travelled on each edge (scaled for the first and last). */
  edgeMeters: number[];
  origin: SnappedLocation;
  destination: SnappedLocation;
}

