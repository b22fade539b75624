import { uploadCalls, type UploadCorrection, type UploadSession, type UploadSummary } from '@yyp/contracts';
import { callApi } from './call';
import type { UploadableBucket } from './contractTypes';

/**
 * Upload calls: a session is opened for an organization (signed in) or by an upload link (public);
 * its files then go to the tus endpoint, and the session is read back and closed with its token.
 * Everything after opening is keyed by the session token alone, so it never carries the bearer.
 */

const anonymous = { anonymous: true };

export function fetchUploadableBuckets(signal?: AbortSignal): Promise<UploadableBucket[]> {
  return callApi(uploadCalls.uploadable, {}, { signal });
}

export function startBucketUpload(bucketId: string): Promise<UploadSession> {
  return callApi(uploadCalls.start, { params: { bucketId } });
}

/** Public: 404 NotFound when the link token is unknown or revoked. */
export function startLinkUpload(token: string): Promise<UploadSession> {
  return callApi(uploadCalls.byToken, { body: { token } }, anonymous);
}

export function fetchUploadSummary(sessionToken: string): Promise<UploadSummary> {
  return callApi(uploadCalls.summary, { body: { sessionToken } }, anonymous);
}

/**
 * Closes the session (no more files) and answers what it stored and skipped. `corrections` (the
 * wizard's step 2) are written on the exams the upload stored; 400 when a value breaks a limit,
 * nothing changed and the session still open.
 */
export function completeUpload(sessionToken: string, corrections?: UploadCorrection): Promise<UploadSummary> {
  return callApi(
    uploadCalls.complete,
    { body: corrections ? { sessionToken, corrections } : { sessionToken } },
    anonymous,
  );
}
