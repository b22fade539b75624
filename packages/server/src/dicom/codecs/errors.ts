/**
 * Why a frame could not be decoded or encoded. The DICOMweb routes answer it 406 (the asked
 * representation cannot be produced), never 500.
 */
export type CodecFailure = 'unsupported-syntax' | 'unsupported-pixels' | 'corrupt';

export class CodecError extends Error {
  constructor(
    message: string,
    readonly reason: CodecFailure,
  ) {
    super(message);
    this.name = 'CodecError';
  }
}
