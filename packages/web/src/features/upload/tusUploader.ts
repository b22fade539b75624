import { defaultOptions, DetailedError, Upload } from 'tus-js-client';
import { failureOfStatus, type FileUploader } from './fileUploader';

/** 5 MiB chunks: a dropped connection loses at most one chunk, and progress moves often. */
const CHUNK_SIZE = 5 * 1024 * 1024;
/** About two minutes of retries before a file is marked failed (and retried when back online). */
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000, 60_000];
const FINGERPRINT_PREFIX = 'yyp-upload';

export function uploadFingerprint(uploadId: string, fileKey: string): string {
  return `${FINGERPRINT_PREFIX}:${uploadId}:${fileKey}`;
}

/**
 * Sends a file with tus: the Upload-Session header on every request (no bearer token), 5 MiB
 * chunks with retries, and the upload URL kept in local storage under the file's fingerprint so
 * that reopening the page resumes the file where it stopped instead of sending it again.
 */
export const tusUploader: FileUploader = ({ file, name, session, fingerprint }, callbacks) => {
  let stopped = false;
  const upload = new Upload(file, {
    endpoint: new URL(session.endpoint, window.location.origin).href,
    headers: { 'Upload-Session': session.sessionToken },
    metadata: { filename: name },
    chunkSize: CHUNK_SIZE,
    retryDelays: RETRY_DELAYS,
    fingerprint: () => Promise.resolve(fingerprint),
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    onProgress: (bytesSent) => callbacks.onProgress(bytesSent),
    onSuccess: () => callbacks.onSuccess(),
    onError: (error) => {
      const status = error instanceof DetailedError ? (error.originalResponse?.getStatus() ?? 0) : 0;
      callbacks.onError(failureOfStatus(status));
    },
  });
  upload
    .findPreviousUploads()
    .then((previous) => {
      const latest = previous.sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
      if (latest) {
        upload.resumeFromPreviousUpload(latest);
      }
    })
    .catch(() => undefined)
    .finally(() => {
      if (!stopped) {
        upload.start();
      }
    });
  return {
    abort: () => {
      stopped = true;
      void upload.abort(false);
    },
  };
};

/** A finished session's resume entries are of no further use: drop them from local storage. */
export async function forgetSessionUploads(uploadId: string): Promise<void> {
  const storage = defaultOptions.urlStorage;
  // Only the browser build keeps resume entries (in local storage); elsewhere there is nothing to drop.
  if (typeof storage.findAllUploads !== 'function') {
    return;
  }
  const mine = `::${uploadFingerprint(uploadId, '')}`;
  const all = await storage.findAllUploads().catch(() => []);
  await Promise.all(
    all.filter((u) => u.urlStorageKey.includes(mine)).map((u) => storage.removeUpload(u.urlStorageKey)),
  );
}
