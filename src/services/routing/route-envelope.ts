/**
 * The POST /routing/route answer as JSON text, spliced around the trip JSON a
 * solver worker serialised: the main thread neither clones the trip object nor
 * serialises it again. The text is exactly `JSON.stringify` of
 * `{ ...availableEnvelope(path, { trip, alternates?, id? }), labels, trafficModel? }`.
 */
import { availableEnvelope } from './engine-envelope.js';

export interface SerializedTrips {
  tripJson: string;
  /** JSON of `[{ trip }, …]`; undefined when there are no alternatives. */
  alternatesJson: string | undefined;
}

/** `trafficModel` (only when the request gave a `date_time`) follows the labels: the metric the route was searched on. */
export function routeAnswerJson(path: string, trips: SerializedTrips, id: string | undefined, labels: unknown, trafficModel?: unknown): string {
  const head = JSON.stringify(availableEnvelope(path, null)).slice(0, -'null}'.length);
  const alternates = trips.alternatesJson ? `,"alternates":${trips.alternatesJson}` : '';
  const echoedId = id ? `,"id":${JSON.stringify(id)}` : '';
  const traffic = trafficModel === undefined ? '' : `,"trafficModel":${JSON.stringify(trafficModel)}`;
  return `${head}{"trip":${trips.tripJson}${alternates}${echoedId}},"labels":${JSON.stringify(labels)}${traffic}}`;
}
