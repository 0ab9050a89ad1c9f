/**
 * A handler's answer that is already JSON text: the edge sends it as it is
 * (with the route's success status) instead of serialising an object. For
 * answers assembled from parts serialised elsewhere, such as the route answer
 * a solver worker wrote and handed over as UTF-8 bytes (a Buffer).
 */
export class JsonText {
  constructor(readonly text: string | Buffer) {}
}
