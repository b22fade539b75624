import {
  callPath,
  learningCalls,
  learningSchema,
  type Learning,
  type LearningDetail,
  type LearningList,
  type LearningUpdate,
} from '@yyp/contracts';
import { callApi } from './call';
import { apiRequest } from './client';

/** Learning videos (contracts learningCalls; issue 27). */

export const fetchLearnings = (page: { skip: number; limit: number }, signal?: AbortSignal): Promise<LearningList> =>
  callApi(learningCalls.list, { query: page }, { signal });

/** One video with its signed stream URL; a visitor's call (no session) reads a published one. */
export const fetchLearning = (learningId: string, signal?: AbortSignal): Promise<LearningDetail> =>
  callApi(learningCalls.get, { params: { learningId } }, { signal });

/** How long an upload may take before the browser gives up (a large video on a slow line). */
const UPLOAD_TIMEOUT_MS = 30 * 60 * 1000;

/** POST learnings: the file itself is the body (its type says video/mp4 or video/webm; the server checks its bytes). */
export async function uploadLearning(
  file: File,
  meta: { title: string; description: string; published: boolean; sortOrder: number },
): Promise<Learning> {
  const answer = await apiRequest<unknown>(callPath(learningCalls.upload, {}), {
    method: learningCalls.upload.method,
    body: file,
    query: { ...meta, published: String(meta.published) },
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
  return learningSchema.parse(answer);
}

export const updateLearning = (learningId: string, change: LearningUpdate): Promise<Learning> =>
  callApi(learningCalls.update, { params: { learningId }, body: change });

export async function deleteLearning(learningId: string): Promise<void> {
  await callApi(learningCalls.remove, { params: { learningId } });
}
