/**
 * Why a data pack could not be found or read. The ingest CLI prints `message`
 * (as it prints an ingest's own errors) and the server refuses to start with
 * it; `code` lets tests and scripts tell the cases apart.
 */
export type PackErrorCode = 'file_not_found' | 'invalid_argument' | 'invalid_pack';

export class PackError extends Error {
  constructor(
    readonly code: PackErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'PackError';
  }
}
