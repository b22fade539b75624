/**
 * Factories of the calling tests (issue 23): an organization's desk with its call queues, and
 * patients who arrive (a walk-in registration, arrived at once, checks into its modality's queue).
 *
 *   const desk = await makeDesk(t);                       // registrar manages the queue, tech calls
 *   const ct = await makeQueueType(t, desk, { displayName: 'CT 1', modality: 'CT' });
 *   const reg = await arrivePatient(t, desk, { name: '王^小东', modality: 'CT' });
 *   const queue = await queueOf(t, desk.tech.token, desk.org.bucketId);
 */
import type {
  IssuedScreenToken,
  QueueActionResult,
  QueueExam,
  QueuePage,
  QueueType,
  Registration,
} from '@yyp/contracts';
import { expect } from 'vitest';
import { dayFromNow, register, type Desk } from './factories-registry.js';
import { queueExams, queueTypes, screenTokens } from '../db/schema.js';
import type { TestApp } from './harness.js';

/** A call queue of the desk's organization, added by its registrar (calling_manage_queue). */
export async function makeQueueType(
  t: TestApp,
  desk: Desk,
  values: { displayName: string; modality: string; roomName?: string; urgentFirst?: boolean },
): Promise<QueueType> {
  const res = await t.as(desk.registrar.token).post('queue-types/add', { bucketId: desk.org.bucketId, ...values });
  if (res.statusCode !== 201) throw new Error(`queue-types/add: ${res.statusCode} ${res.body}`);
  return res.json() as QueueType;
}

/** A walk-in patient registered for one exam today and arrived at once (the registrar's desk). */
export function arrivePatient(
  t: TestApp,
  desk: Desk,
  values: { name: string; modality: string; urgent?: boolean; patientId?: string },
): Promise<Registration> {
  return register(
    t,
    desk.registrar.token,
    desk.org.bucketId,
    [{ modality: values.modality, scheduledDate: dayFromNow(t) }],
    {
      arrive: true,
      urgent: values.urgent ?? false,
      patient: {
        name: values.name,
        gender: 'M',
        birthDate: '19810615',
        ...(values.patientId ? { patientId: values.patientId } : {}),
      },
    },
  );
}

/** POST queue-exams/query, expecting 200. */
export async function queueOf(
  t: TestApp,
  token: string,
  bucketId: string,
  body: Record<string, unknown> = {},
): Promise<QueuePage> {
  const res = await t.as(token).post('queue-exams/query', { bucketId, ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as QueuePage;
}

/** The queue as "number name status" lines, in queue order (names as the caller sees them). */
export const lines = (page: QueuePage | QueueExam[]) =>
  ('items' in page ? page.items : page).map((e) => `${e.queueNo} ${e.patientName} ${e.status}`);

/** POST queue-exams/call-next, expecting 200; a second passes first (the calls' order is their times'). */
export async function callNext(t: TestApp, token: string, queueTypeId: string, room = ''): Promise<QueueActionResult> {
  t.clock.advance(1000);
  const res = await t.as(token).post('queue-exams/call-next', { queueTypeId, ...(room ? { room } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as QueueActionResult;
}

/** POST queue-exams/{id}/action, expecting 200; a second passes first. */
export async function act(
  t: TestApp,
  token: string,
  id: string,
  body: Record<string, unknown>,
): Promise<QueueActionResult> {
  t.clock.advance(1000);
  const res = await t.as(token).post(`queue-exams/${id}/action`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as QueueActionResult;
}

/** A screen token of the desk's organization, issued by its registrar. */
export async function issueScreenToken(t: TestApp, desk: Desk, label = '候诊大厅'): Promise<IssuedScreenToken> {
  const res = await t.as(desk.registrar.token).post(`buckets/${desk.org.bucketId}/screen-tokens`, { label });
  if (res.statusCode !== 201) throw new Error(`screen-tokens: ${res.statusCode} ${res.body}`);
  return res.json() as IssuedScreenToken;
}

/** GET screen/queue with a screen token. */
export const screenRead = (t: TestApp, token: string) =>
  t.call('GET', 'screen/queue', { headers: { authorization: `Screen ${token}` } });

/**
 * Calling rows written straight to the database (a call queue of the organization, the scheduled
 * exam waiting in it, a screen token), for tests that need their ids and not the calls that make them.
 */
export async function insertCallingRows(
  t: TestApp,
  bucketId: string,
  scheduledExamId: string,
): Promise<{ queueTypeId: string; queueExamId: string; screenTokenId: string }> {
  const db = t.db.database.db;
  const [queueType] = await db
    .insert(queueTypes)
    .values({ id: 'queue-type-fixture', bucketId, displayName: '甲城 CT 队列', modality: 'CT' })
    .returning();
  const [queueExam] = await db
    .insert(queueExams)
    .values({
      id: 'queue-exam-fixture',
      bucketId,
      queueTypeId: queueType!.id,
      scheduledExamId,
      checkInDate: '2026-11-22',
      queueNo: 1,
      status: 'waiting',
    })
    .returning();
  const [screenToken] = await db
    .insert(screenTokens)
    .values({ id: 'screen-token-fixture', bucketId, tokenHash: 'hash-fixture', label: '甲城候诊屏' })
    .returning();
  return { queueTypeId: queueType!.id, queueExamId: queueExam!.id, screenTokenId: screenToken!.id };
}
