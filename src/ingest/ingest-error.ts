/**
 * Why an ingest stopped. The CLI prints `message` and exits non-zero; the
 * server refuses to start with it. `code` lets tests and scripts tell cases apart.
 */
export type IngestErrorCode =
  | 'file_not_found'
  | 'not_osm'
  | 'truncated'
  | 'corrupt'
  | 'unsupported'
  | 'empty_selection'
  | 'invalid_argument';

export class IngestError extends Error {
  constructor(
    readonly code: IngestErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'IngestError';
  }
}
