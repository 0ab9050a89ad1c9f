/**
 * A handler's answer that is already JSON text: the edge sends it as it is
 * (with the route's success status) instead of serialising an object. For
 * answers assembled from parts serialised elsewhere, such as a trip a solver
 * worker returned as a string.
 */
export class JsonText {
  constructor(readonly text: string) {}
}
