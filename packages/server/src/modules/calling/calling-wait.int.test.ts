import type { QueuePage, QueueType, ScreenQueue } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueExams, scheduledExams } from '../../db/schema.js';
import {
  arrivePatient,
  callNext,
  issueScreenToken,
  makeQueueType,
  queueOf,
  screenRead,
} from '../../test/factories-calling.js';
import { makeDesk, type Desk } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * The predicted wait of the calling screens (issue 26; contracts calling-wait.ts): a queue's pace
 * is the median of the minutes between its consecutive calls (exam_steps) on one day over the last
 * 14 days, counted only when the patient called had arrived by the call before; a waiting patient
 * at place p waits pace × p, a queue's wait is pace × (waiting + 1); too little history → null.
 * The test clock's today is 2026-11-22 (hospital time).
 */
let t: TestApp;
let desk: Desk;
let other: Desk;
let ct: QueueType;
let mr: QueueType;
let otherCt: QueueType;
let seq = 0;

/** A patient of `d` who arrived at `arrived` and was called at `called` (hospital HH:mm) on `day`, now done. */
async function pastCall(d: Desk, modality: string, day: string, arrived: string, called: string): Promise<void> {
  const reg = await arrivePatient(t, d, { name: `史^${++seq}`, modality });
  const scheduledExamId = reg.exams[0]!.id;
  const at = (hhmm: string) => new Date(`${day}T${hhmm}:00+08:00`);
  const db = t.db.database.db;
  const updated = await db
    .update(queueExams)
    .set({ checkInDate: day, queueNo: 1000 + seq, status: 'done', calledAt: at(called), calledCount: 1 })
    .where(eq(queueExams.scheduledExamId, scheduledExamId))
    .returning();
  expect(updated).toHaveLength(1);
  await db
    .update(scheduledExams)
    .set({ arrivedAt: at(arrived) })
    .where(eq(scheduledExams.id, scheduledExamId));
}

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  desk = await makeDesk(t, { name: '放射科' });
  other = await makeDesk(t, { name: '乙城放射科' });
  ct = await makeQueueType(t, desk, { displayName: 'CT', modality: 'CT', roomName: 'CT 1' });
  mr = await makeQueueType(t, desk, { displayName: 'MR', modality: 'MR' });
  otherCt = await makeQueueType(t, other, { displayName: '乙城 CT', modality: 'CT' });
  // CT, 11-20: all arrived at 08:50; gaps 4, 6, 6, 8 (the first call of a day has none).
  for (const called of ['09:00', '09:04', '09:10', '09:16', '09:24']) {
    await pastCall(desk, 'CT', '2026-11-20', '08:50', called);
  }
  // CT, 11-21: a gap of 7; then 33 minutes idle (the patient arrived at 09:20, after the 09:07 call): not counted.
  await pastCall(desk, 'CT', '2026-11-21', '08:50', '09:00');
  await pastCall(desk, 'CT', '2026-11-21', '08:50', '09:07');
  await pastCall(desk, 'CT', '2026-11-21', '09:20', '09:40');
  // CT, 11-08 (14 days back, outside the window): a gap of 100.
  await pastCall(desk, 'CT', '2026-11-08', '08:50', '09:00');
  await pastCall(desk, 'CT', '2026-11-08', '08:50', '10:40');
  // MR, 11-21: four gaps of 3 minutes, one fewer than a pace needs.
  for (const called of ['09:00', '09:03', '09:06', '09:09', '09:12']) {
    await pastCall(desk, 'MR', '2026-11-21', '08:50', called);
  }
  // The other organization's CT: six gaps of 1 minute.
  for (const called of ['09:00', '09:01', '09:02', '09:03', '09:04', '09:05', '09:06']) {
    await pastCall(other, 'CT', '2026-11-21', '08:50', called);
  }
  // Today: four CT patients, the first called (3 wait), one MR patient, one of the other organization.
  for (const name of ['王^小东', '李^四', '张^三丰', '赵^六']) await arrivePatient(t, desk, { name, modality: 'CT' });
  await arrivePatient(t, desk, { name: '钱^七', modality: 'MR' });
  await arrivePatient(t, other, { name: '孙^悟空', modality: 'CT' });
  await callNext(t, desk.tech.token, ct.id);
});
afterAll(async () => {
  await t.close();
});

const waitsOf = (page: QueuePage, queueTypeId: string) =>
  page.items
    .filter((e) => e.queueTypeId === queueTypeId)
    .map((e) => `${e.patientName} ${e.status} ${String(e.predictedWaitMinutes)}`);

describe('queue-exams/query of today', () => {
  it('gives each queue its median gap × (waiting + 1), and each waiting patient the median × its place', async () => {
    const page = await queueOf(t, desk.tech.token, desk.org.bucketId);
    // Gaps counted: 4, 6, 6, 8 (11-20) and 7 (11-21): median 6.
    expect(page.predictions).toEqual([
      { queueTypeId: ct.id, paceMinutes: 6, samples: 5, waitingCount: 3, predictedWaitMinutes: 24 },
      { queueTypeId: mr.id, paceMinutes: null, samples: 4, waitingCount: 1, predictedWaitMinutes: null },
    ]);
    expect(waitsOf(page, ct.id)).toEqual([
      '王小东 called undefined',
      '李四 waiting 6',
      '张三丰 waiting 12',
      '赵六 waiting 18',
    ]);
    // Too little history: null, not 0.
    expect(waitsOf(page, mr.id)).toEqual(['钱七 waiting null']);
  });

  it('counts the places of the whole line, whatever the page or filter shows', async () => {
    const page = await queueOf(t, desk.tech.token, desk.org.bucketId, { queueTypeId: ct.id, q: '张' });
    expect(waitsOf(page, ct.id)).toEqual(['张三丰 waiting 12']);
    expect(page.predictions?.map((p) => p.predictedWaitMinutes)).toEqual([24, null]);
  });

  it("another organization's history never counts, nor does ours count there", async () => {
    const page = await queueOf(t, other.tech.token, other.org.bucketId);
    expect(page.predictions).toEqual([
      { queueTypeId: otherCt.id, paceMinutes: 1, samples: 6, waitingCount: 1, predictedWaitMinutes: 2 },
    ]);
    expect(waitsOf(page, otherCt.id)).toEqual(['孙悟空 waiting 1']);
  });

  it('predicts nothing for another day', async () => {
    const page = await queueOf(t, desk.tech.token, desk.org.bucketId, { checkInDate: '2026-11-21' });
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.predictions).toBeUndefined();
    expect(page.items.every((e) => e.predictedWaitMinutes === undefined)).toBe(true);
  });
});

describe('GET screen/queue', () => {
  it("shows each room's predicted wait and each next patient's", async () => {
    const { token } = await issueScreenToken(t, desk);
    const res = await screenRead(t, token);
    expect(res.statusCode, res.body).toBe(200);
    const screen = res.json() as ScreenQueue;
    expect(
      screen.queues.map((q) => [q.displayName, q.predictedWaitMinutes, q.next.map((n) => n.predictedWaitMinutes)]),
    ).toEqual([
      ['CT', 24, [6, 12, 18]],
      ['MR', null, [null]],
    ]);
  });
});
