/**
 * The working memory of the HMM matcher, kept per routing engine (one per thread:
 * RoutingEngine.matcherScratch) and reused by every trace matched there, whatever its metric, so
 * matching a trip allocates little beyond its answer: the route
 * search's per-edge arrays (sized by the pack), the nearest-road hits, and the candidates of the
 * Viterbi layers as a struct of arrays (edge id, fraction, position, distance, emission, score,
 * back-pointer) grown to the largest trip seen. One thread uses it at a time (a matcher runs
 * synchronously to the end).
 */
import type { MapPack } from '../../../datapack/map-pack.js';
import { NO_INDEX } from '../../../datapack/pack-layout.js';
import type { EdgeGraph } from '../edge-graph.js';
import { SegmentHits } from '../snapping/segment-grid.js';
import { MeterSearch, type MeterSearchOptions } from './route-distances.js';

const INITIAL_CANDIDATES = 1024;
const INITIAL_LAYERS = 256;

export class MatcherScratch {
  readonly search: MeterSearch;
  readonly hits = new SegmentHits();
  /** Usable by the current metric in either direction (the filter of candidate roads), made once. */
  readonly usableEither: (edge: number) => boolean;
  private weight: Float64Array<ArrayBufferLike> = new Float64Array(0);

  /** Candidates of all layers of the trace being matched, layer after layer. */
  candidates = 0;
  edge = new Int32Array(INITIAL_CANDIDATES);
  fraction = new Float64Array(INITIAL_CANDIDATES);
  lat = new Float64Array(INITIAL_CANDIDATES);
  lon = new Float64Array(INITIAL_CANDIDATES);
  distanceMeters = new Float64Array(INITIAL_CANDIDATES);
  logEmission = new Float64Array(INITIAL_CANDIDATES);
  score = new Float64Array(INITIAL_CANDIDATES);
  /** Index (within the previous layer) of the best predecessor, -1 for none. */
  back = new Int32Array(INITIAL_CANDIDATES);
  /** Per transition: the best score reaching each candidate of the next layer before its emission. */
  best = new Float64Array(INITIAL_CANDIDATES);

  /** Layers (state points) of the trace: the point, its first candidate and count, great-circle metres from the previous layer. */
  layers = 0;
  layerPoint = new Int32Array(INITIAL_LAYERS);
  layerFirst = new Int32Array(INITIAL_LAYERS);
  layerCount = new Int32Array(INITIAL_LAYERS);
  layerGreatCircle = new Float64Array(INITIAL_LAYERS);
  /** Candidate index of each layer's chosen candidate (backtracking). */
  chosen = new Int32Array(INITIAL_LAYERS);

  constructor(pack: MapPack, graph: EdgeGraph) {
    this.search = new MeterSearch(pack, graph, { uTurnMeters: 0, backwardToleranceMeters: 0 });
    const twin = pack.sections['graph.edgeTwin'];
    this.usableEither = (edge) => this.weight[edge] !== Infinity || (twin[edge] !== NO_INDEX && this.weight[twin[edge]!] !== Infinity);
  }

  /** Starts a trace on a metric's graph: forgets the previous trace's layers and candidates. */
  start(graph: EdgeGraph, options: MeterSearchOptions): void {
    this.search.configure(graph, options);
    this.weight = graph.costs.weight;
    this.candidates = 0;
    this.layers = 0;
  }

  /** Appends a candidate (room is made first with `reserveCandidates`). */
  pushCandidate(edge: number, fraction: number, lat: number, lon: number, distanceMeters: number, logEmission: number): void {
    const at = this.candidates++;
    this.edge[at] = edge;
    this.fraction[at] = fraction;
    this.lat[at] = lat;
    this.lon[at] = lon;
    this.distanceMeters[at] = distanceMeters;
    this.logEmission[at] = logEmission;
    this.score[at] = logEmission;
    this.back[at] = -1;
  }

  /** Appends a layer over the candidates [first, first + count). */
  pushLayer(point: number, first: number, count: number, greatCircle: number): void {
    if (this.layers === this.layerPoint.length) {
      const capacity = 2 * this.layers;
      this.layerPoint = grown(this.layerPoint, new Int32Array(capacity));
      this.layerFirst = grown(this.layerFirst, new Int32Array(capacity));
      this.layerCount = grown(this.layerCount, new Int32Array(capacity));
      this.layerGreatCircle = grown(this.layerGreatCircle, new Float64Array(capacity));
      this.chosen = new Int32Array(capacity);
    }
    const at = this.layers++;
    this.layerPoint[at] = point;
    this.layerFirst[at] = first;
    this.layerCount[at] = count;
    this.layerGreatCircle[at] = greatCircle;
  }

  /** Makes room for `more` candidates after the current ones. */
  reserveCandidates(more: number): void {
    const size = this.candidates + more;
    if (size <= this.edge.length) return;
    const capacity = Math.max(size, 2 * this.edge.length);
    this.edge = grown(this.edge, new Int32Array(capacity));
    this.fraction = grown(this.fraction, new Float64Array(capacity));
    this.lat = grown(this.lat, new Float64Array(capacity));
    this.lon = grown(this.lon, new Float64Array(capacity));
    this.distanceMeters = grown(this.distanceMeters, new Float64Array(capacity));
    this.logEmission = grown(this.logEmission, new Float64Array(capacity));
    this.score = grown(this.score, new Float64Array(capacity));
    this.back = grown(this.back, new Int32Array(capacity));
    this.best = new Float64Array(capacity);
  }
}

function grown<T extends Int32Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
