import type {
  CallingBoard,
  CallingBucket,
  CallingSettings,
  CallNext,
  IssuedScreenToken,
  MissedList,
  QueueActionInput,
  QueueActionResult,
  QueueExam,
  QueuePage,
  QueueQuery,
  QueueType,
  QueueTypeAdd,
  QueueTypeInput,
  ScreenQueue,
  ScreenToken,
} from '@yyp/contracts';
import { callingCalls, callingSettingsCalls, SCREEN_AUTH_SCHEME, screenCalls, screenTokenCalls } from '@yyp/contracts';
import { callApi } from './call';

/** Patient calling (spec 001 §7 "Queue calling"; issue 23): queues, calls, settings and screens. */

export function fetchCallingBuckets(signal?: AbortSignal): Promise<CallingBucket[]> {
  return callApi(callingCalls.buckets, {}, { signal });
}

export function fetchQueueTypes(bucketId: string, signal?: AbortSignal): Promise<QueueType[]> {
  return callApi(callingCalls.queueTypes, { params: { bucketId } }, { signal });
}

export function addQueueType(body: QueueTypeAdd): Promise<QueueType> {
  return callApi(callingCalls.addQueueType, { body });
}

export function updateQueueType(id: string, body: QueueTypeInput): Promise<QueueType> {
  return callApi(callingCalls.updateQueueType, { params: { id }, body });
}

export async function deleteQueueType(id: string): Promise<void> {
  await callApi(callingCalls.deleteQueueType, { params: { id } });
}

export function queryQueue(body: QueueQuery, signal?: AbortSignal): Promise<QueuePage> {
  return callApi(callingCalls.query, { body }, { signal });
}

export function queueAction(id: string, body: QueueActionInput): Promise<QueueActionResult> {
  return callApi(callingCalls.action, { params: { id }, body });
}

export function resortQueueExam(id: string, targetQueueNo: number): Promise<QueueExam[]> {
  return callApi(callingCalls.resort, { params: { id }, body: { targetQueueNo } });
}

export function callNext(body: CallNext): Promise<QueueActionResult> {
  return callApi(callingCalls.callNext, { body });
}

export function fetchCallingBoard(bucketId: string, signal?: AbortSignal): Promise<CallingBoard> {
  return callApi(callingCalls.calling, { query: { bucketId } }, { signal });
}

export function fetchMissed(bucketId: string, signal?: AbortSignal): Promise<MissedList> {
  return callApi(callingCalls.missed, { query: { bucketId } }, { signal });
}

export function fetchCallingSettings(bucketId: string, signal?: AbortSignal): Promise<CallingSettings> {
  return callApi(callingSettingsCalls.get, { params: { bucketId } }, { signal });
}

export function saveCallingSettings(bucketId: string, body: CallingSettings): Promise<CallingSettings> {
  return callApi(callingSettingsCalls.update, { params: { bucketId }, body });
}

export function fetchScreenTokens(bucketId: string, signal?: AbortSignal): Promise<ScreenToken[]> {
  return callApi(screenTokenCalls.list, { params: { bucketId } }, { signal });
}

export function issueScreenToken(bucketId: string, label: string): Promise<IssuedScreenToken> {
  return callApi(screenTokenCalls.issue, { params: { bucketId }, body: { label } });
}

export function revokeScreenToken(id: string): Promise<ScreenToken> {
  return callApi(screenTokenCalls.revoke, { params: { id } });
}

/** The waiting-room screen's read: authorized by its screen token alone (no session). */
export function fetchScreenQueue(token: string, signal?: AbortSignal): Promise<ScreenQueue> {
  return callApi(
    screenCalls.queue,
    {},
    { signal, anonymous: true, headers: { Authorization: `${SCREEN_AUTH_SCHEME} ${token}` } },
  );
}

/** Where the server renders announcements (outside API_BASE: spec 001 §7 POST /yyp/api/text2speech). */
export const TEXT2SPEECH_PATH = '/yyp/api/text2speech';
const SPEECH_TIMEOUT_MS = 15_000;

/**
 * The announcement rendered by the server as audio, or 'unavailable' when the server has no speech
 * engine (503: the browser speaks instead). `authorization` is the caller's header: the session's
 * bearer token on /calling, `Screen <token>` on the waiting-room screen.
 */
export async function fetchSpeech(
  text: string,
  lang: 'chs' | 'en' | 'tib',
  authorization: string | null,
): Promise<Blob | 'unavailable'> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), SPEECH_TIMEOUT_MS);
  try {
    const response = await fetch(TEXT2SPEECH_PATH, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'audio/*',
        'Accept-Language': lang === 'en' ? 'en' : 'zh-CN',
        ...(authorization ? { Authorization: authorization } : {}),
      },
      body: JSON.stringify({ text, lang }),
      signal: controller.signal,
    });
    if (response.status === 503) return 'unavailable';
    if (!response.ok) throw new Error(`text2speech answered HTTP ${response.status}`);
    return await response.blob();
  } finally {
    clearTimeout(timer);
  }
}
