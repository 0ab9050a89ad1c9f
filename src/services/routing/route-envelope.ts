/**
 * The POST /routing/route answer as JSON text, spliced around the trip JSON a
 * solver worker serialised: the main thread neither clones the trip object nor
 * serialises it again. The text is exactly `JSON.stringify` of
 * `{ ...availableEnvelope(path, { trip, alternates?, id? }), labels }`.
 */
import { availableEnvelope } from './engine-envelope.js';

export interface SerializedTrips {
  tripJson: string;
  /** JSON of `[{ trip }, …]`; undefined when there are no alternatives. */
  alternatesJson: string | undefined;
}

export function routeAnswerJson(path: string, trips: SerializedTrips, id: string | undefined, labels: unknown): string {
  const head = JSON.stringify(availableEnvelope(path, null)).slice(0, -'null}'.length);
  const alternates = trips.alternatesJson ? `,"alternates":${trips.alternatesJson}` : '';
  const echoedId = id ? `,"id":${JSON.stringify(id)}` : '';
  return `${head}{"trip":${trips.tripJson}${alternates}${echoedId}},"labels":${JSON.stringify(labels)}}`;
}
