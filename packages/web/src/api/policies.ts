import { isErrorBody, policyCalls, type UploadKind, type UploadPolicy } from '@yyp/contracts';
import { callApi } from './call';
import { ApiError } from './errors';

/**
 * Upload policies of spec 001 §7 (GET policies/avatars, …): the server checks type and size and
 * answers a short-lived URL; the file then goes straight to the blob store (S3, or yyp's own blob
 * route on a single server), never through the API and never with the bearer token.
 */
export function fetchUploadPolicy(
  kind: UploadKind,
  file: Pick<File, 'type' | 'size' | 'name'>,
  signal?: AbortSignal,
): Promise<UploadPolicy> {
  return callApi(
    policyCalls[kind],
    { query: { contentType: file.type, size: file.size, fileName: file.name } },
    { signal },
  );
}

/** PUTs the file's bytes to the policy's URL with exactly its headers. */
export async function uploadWithPolicy(policy: UploadPolicy, file: Blob, signal?: AbortSignal): Promise<void> {
  let response: Response;
  try {
    response = await fetch(policy.upload.url, {
      method: policy.upload.method,
      headers: policy.upload.headers,
      body: file,
      signal,
    });
  } catch (error) {
    if (signal?.aborted) {
      throw error;
    }
    throw new ApiError('NetworkError', 0, error instanceof Error ? error.message : 'Network error');
  }
  if (response.ok) {
    return;
  }
  // yyp's blob route answers its own error codes; an object store answers XML by status.
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (isErrorBody(body)) {
    throw new ApiError(body.code, response.status, body.message, body.details);
  }
  const code = response.status === 403 ? 'LinkInvalid' : response.status === 413 ? 'PayloadTooLarge' : 'UnknownError';
  throw new ApiError(code, response.status, `upload answered HTTP ${response.status}`);
}
