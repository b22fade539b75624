import type { UploadSession } from '@yyp/contracts';

/** One file to send into an upload session. */
export interface UploadRequest {
  file: File;
  /** Sent as the tus `filename` metadata: the path inside the chosen folder, or the name. */
  name: string;
  session: UploadSession;
  /** Names this file in this session, so a later page can find the unfinished upload again. */
  fingerprint: string;
}

/**
 * Why a file did not arrive. `network`: no answer (it may be retried when the connection is
 * back); `sessionClosed`: the session token was refused; `tooLarge`: over the server's size limit.
 */
export type UploadFailureKind = 'network' | 'sessionClosed' | 'tooLarge' | 'rejected';

export interface UploadCallbacks {
  onProgress: (bytesSent: number) => void;
  /** The server has the whole file and has ingested it (stored or skipped). */
  onSuccess: () => void;
  onError: (failure: UploadFailureKind) => void;
}

export interface UploadHandle {
  /** Stop sending; what arrived stays on the server, so the file can continue later. */
  abort: () => void;
}

/** Sends one file; the tus implementation in production, a fake in component tests. */
export type FileUploader = (request: UploadRequest, callbacks: UploadCallbacks) => UploadHandle;

export function failureOfStatus(status: number): UploadFailureKind {
  if (status === 0) {
    return 'network';
  }
  if (status === 401 || status === 403 || status === 404 || status === 410) {
    return 'sessionClosed';
  }
  return status === 413 ? 'tooLarge' : 'rejected';
}
