import { queueTopic, type QueueEvent, type QueueExam, type QueueType } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, queueExams } from '../../db/schema.js';
import { act, arrivePatient, callNext, lines, makeQueueType, queueOf } from '../../test/factories-calling.js';
import { dayFromNow, makeDesk, makeProcedure, register, type Desk } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * The day's queue (spec 000 §3 queue exam, §4 check-in; spec 001 §7 queue-exams calls; issue 23):
 * check-in on arrival and by hand, numbering (urgent first when the queue says so), call-next,
 * the queue machine's actions, missed and return, move, and the live events each change publishes.
 */
let t: TestApp;
let desk: Desk;
let other: Desk;
let ct: QueueType;
let mr: QueueType;
const events: QueueEvent[] = [];

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  desk = await makeDesk(t, { name: '放射科' });
  other = await makeDesk(t, { name: '乙城放射科' });
  ct = await makeQueueType(t, desk, { displayName: 'CT', modality: 'CT', roomName: 'CT 1' });
  mr = await makeQueueType(t, desk, { displayName: 'MR', modality: 'MR', urgentFirst: false });
  t.services.live.subscribe(queueTopic(desk.org.bucketId), (m) => events.push(m.event as QueueEvent));
  await t.services.live.ready();
});
afterAll(async () => {
  await t.close();
});

const bucketId = () => desk.org.bucketId;
const queue = async (queueTypeId: string) => (await queueOf(t, desk.tech.token, bucketId(), { queueTypeId })).items;
const examOf = async (queueTypeId: string, queueNo: number) =>
  (await queue(queueTypeId)).find((e) => e.queueNo === queueNo)!;
/** Events arrive after the publisher's turn (as NOTIFY does): wait until `n` more have come. */
const eventsAfter = async (from: number, n: number) => {
  for (let i = 0; i < 200 && events.length < from + n; i++) await new Promise((r) => setTimeout(r, 10));
  return events.slice(from);
};

describe('check-in', () => {
  it('checks arrivals into their modality queue, numbered in arrival order, urgent first where the queue says so', async () => {
    await arrivePatient(t, desk, { name: '王^小东', modality: 'CT' });
    await arrivePatient(t, desk, { name: '李^四', modality: 'CT' });
    await arrivePatient(t, desk, { name: '张^三丰', modality: 'CT', urgent: true });
    await arrivePatient(t, desk, { name: '赵^六', modality: 'MR' });
    await arrivePatient(t, desk, { name: '钱^七', modality: 'MR', urgent: true });
    // CT puts urgent exams first: 张三丰 takes the place (and number) of the first waiting exam not urgent
    expect(lines(await queue(ct.id))).toEqual(['1 张三丰 waiting', '2 王小东 waiting', '3 李四 waiting']);
    expect(lines(await queue(mr.id))).toEqual(['1 赵六 waiting', '2 钱七 waiting']);
    const [first] = await queue(ct.id);
    expect(first).toMatchObject({
      urgent: true,
      masked: false,
      modality: 'CT',
      queueTypeName: 'CT',
      calledCount: 0,
      actions: ['call', 'done', 'move'],
    });
  });

  it('checks an arrived exam in by hand, and refuses one not arrived, one in a queue already, and unknown or foreign ones', async () => {
    const reg = await register(t, desk.registrar.token, bucketId(), [{ modality: 'DX', scheduledDate: dayFromNow(t) }]);
    const scheduledExamId = reg.exams[0]!.id;
    const post = (token: string, body: Record<string, unknown>) => t.as(token).post('queue-exams/check-in', body);
    expect((await post(desk.tech.token, { scheduledExamId })).statusCode).toBe(409); // not arrived
    const arrived = await t
      .as(desk.registrar.token)
      .post('registry/exam/status', { id: scheduledExamId, action: 'arrive' });
    expect(arrived.statusCode, arrived.body).toBe(200);
    // DX has no queue: nothing checked in on arrival, and by hand only into a named queue
    const none = await post(desk.tech.token, { scheduledExamId });
    expect(none.statusCode).toBe(409);
    expect((await post(desk.doctor.token, { scheduledExamId, queueTypeId: mr.id })).statusCode).toBe(403);
    expect((await post(other.tech.token, { scheduledExamId, queueTypeId: mr.id })).statusCode).toBe(404);
    const foreign = await makeQueueType(t, other, { displayName: 'DX', modality: 'DX' });
    expect((await post(desk.tech.token, { scheduledExamId, queueTypeId: foreign.id })).statusCode).toBe(404);
    expect((await post(desk.tech.token, { scheduledExamId: 'nope' })).statusCode).toBe(404);
    expect((await post(desk.tech.token, { scheduledExamId, extra: 1 })).statusCode).toBe(400);
    const res = await post(desk.tech.token, { scheduledExamId, queueTypeId: mr.id });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ queueNo: 3, status: 'waiting', queueTypeId: mr.id, patientName: '王小东' });
    expect((await post(desk.tech.token, { scheduledExamId, queueTypeId: ct.id })).statusCode).toBe(409);
    expect(lines(await queue(mr.id))).toEqual(['1 赵六 waiting', '2 钱七 waiting', '3 王小东 waiting']);
  });
});

describe('call-next and the actions', () => {
  it('calls the lowest waiting number to the queue room, with the announcement, and publishes it', async () => {
    const from = events.length;
    const called = await callNext(t, desk.tech.token, ct.id);
    expect(called.queueExam).toMatchObject({ queueNo: 1, status: 'called', room: 'CT 1', calledCount: 1 });
    expect(called.call).toMatchObject({ queueNo: 1, name: '张*丰', room: 'CT 1', text: '请 1 号 张*丰 到 CT 1 检查' });
    const [event] = await eventsAfter(from, 1);
    expect(event).toMatchObject({
      type: 'queue.called',
      bucketId: bucketId(),
      queueExamId: called.queueExam!.id,
      call: { queueNo: 1, name: '张*丰', room: 'CT 1', text: '请 1 号 张*丰 到 CT 1 检查' },
    });
    // a room named by the caller; the next number
    const second = await callNext(t, desk.tech.token, ct.id, 'CT 2');
    expect(second.call).toMatchObject({ queueNo: 2, room: 'CT 2' });
  });

  it('recalls, passes to the missed list, returns to the queue keeping the number, and is called again first', async () => {
    const two = await examOf(ct.id, 2);
    const recalled = await act(t, desk.tech.token, two.id, { action: 'recall' });
    expect(recalled.queueExam).toMatchObject({ status: 'called', calledCount: 2, room: 'CT 2' });
    expect(recalled.call?.text).toBe('请 2 号 王*东 到 CT 2 检查');
    const passed = await act(t, desk.tech.token, two.id, { action: 'pass' });
    expect(passed).toMatchObject({
      queueExam: { status: 'missed', actions: ['call', 'return', 'done', 'move'] },
      call: null,
    });
    const missed = await t.as(desk.tech.token).get(`queue-exams/missed?bucketId=${bucketId()}`);
    expect(missed.statusCode).toBe(200);
    expect(lines(missed.json().items as QueueExam[])).toEqual(['2 王小东 missed']);
    expect(lines(await queue(ct.id))).toEqual(['1 张三丰 called', '2 王小东 missed', '3 李四 waiting']);
    await act(t, desk.tech.token, two.id, { action: 'return' });
    expect(lines(await queue(ct.id))).toEqual(['1 张三丰 called', '2 王小东 waiting', '3 李四 waiting']);
    expect((await callNext(t, desk.tech.token, ct.id, 'CT 2')).call).toMatchObject({ queueNo: 2, room: 'CT 2' });
  });

  it('answers the current call of each room', async () => {
    const res = await t.as(desk.tech.token).get(`queue-exams/calling?bucketId=${bucketId()}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().calls.map((e: QueueExam) => `${e.room} ${e.queueNo}`)).toEqual(['CT 2 2', 'CT 1 1']);
  });

  it('refuses what the machine refuses (409) and unknown actions (400), changing nothing', async () => {
    const one = await examOf(ct.id, 1);
    const three = await examOf(ct.id, 3);
    for (const [id, body, status] of [
      [three.id, { action: 'recall' }, 409],
      [three.id, { action: 'pass' }, 409],
      [three.id, { action: 'return' }, 409],
      [one.id, { action: 'call' }, 409],
      [one.id, { action: 'skip' }, 400],
      [one.id, { action: 'move' }, 400],
      [one.id, { action: 'call', room: 'x'.repeat(33) }, 400],
    ] as const) {
      const res = await t.as(desk.tech.token).post(`queue-exams/${id}/action`, body);
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBe(status);
    }
    expect(lines(await queue(ct.id))).toEqual(['1 张三丰 called', '2 王小东 called', '3 李四 waiting']);
  });

  it('finishes an exam (done is final) and answers nobody once the queue is empty', async () => {
    const one = await examOf(ct.id, 1);
    expect((await act(t, desk.tech.token, one.id, { action: 'done' })).queueExam).toMatchObject({
      status: 'done',
      actions: [],
    });
    expect((await t.as(desk.tech.token).post(`queue-exams/${one.id}/action`, { action: 'return' })).statusCode).toBe(
      409,
    );
    await callNext(t, desk.tech.token, ct.id);
    expect(await callNext(t, desk.tech.token, ct.id)).toEqual({ queueExam: null, call: null });
  });

  it("moves an exam to another queue's end, closing it here, but not into another organization's queue", async () => {
    const three = await examOf(ct.id, 3);
    const foreign = (await t.as(other.registrar.token).get(`buckets/${other.org.bucketId}/queue-types`)).json()[0];
    const refused = await t.as(desk.tech.token).post(`queue-exams/${three.id}/action`, {
      action: 'move',
      targetQueueTypeId: foreign.id,
    });
    expect(refused.statusCode).toBe(404);
    const same = await t.as(desk.tech.token).post(`queue-exams/${three.id}/action`, {
      action: 'move',
      targetQueueTypeId: ct.id,
    });
    expect(same.statusCode).toBe(400);
    const moved = await act(t, desk.tech.token, three.id, { action: 'move', targetQueueTypeId: mr.id });
    expect(moved.queueExam).toMatchObject({ queueTypeId: mr.id, queueNo: 4, status: 'waiting', patientName: '李四' });
    expect(lines(await queue(ct.id)).at(-1)).toBe('3 李四 moved');
    const [row] = await t.db.database.db.select().from(queueExams).where(eq(queueExams.id, three.id));
    expect(row).toMatchObject({ status: 'moved', movedToId: moved.queueExam!.id });
  });
});

describe('resort', () => {
  it('moves a waiting patient to another waiting number and renumbers the waiting between', async () => {
    // MR: 1 赵六, 2 钱七, 3 王小东, 4 李四, all waiting
    const four = await examOf(mr.id, 4);
    const res = await t.as(desk.tech.token).post(`queue-exams/${four.id}/resort`, { targetQueueNo: 2 });
    expect(res.statusCode, res.body).toBe(200);
    expect(lines(res.json() as QueueExam[])).toEqual([
      '1 赵六 waiting',
      '2 李四 waiting',
      '3 钱七 waiting',
      '4 王小东 waiting',
    ]);
  });

  it('refuses a number no waiting patient holds (400), a patient not waiting (409), and bad input', async () => {
    const one = await examOf(mr.id, 1);
    const resort = (id: string, body: unknown) => t.as(desk.tech.token).post(`queue-exams/${id}/resort`, body);
    expect((await resort(one.id, { targetQueueNo: 9 })).statusCode).toBe(400);
    for (const body of [{ targetQueueNo: 0 }, { targetQueueNo: 1.5 }, { targetQueueNo: '2' }, {}]) {
      expect((await resort(one.id, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    await callNext(t, desk.tech.token, mr.id);
    expect((await resort(one.id, { targetQueueNo: 2 })).statusCode).toBe(409);
    expect((await resort(one.id, { targetQueueNo: 2 })).json()).toMatchObject({ code: 'Conflict' });
    expect(lines(await queue(mr.id))).toEqual([
      '1 赵六 called',
      '2 李四 waiting',
      '3 钱七 waiting',
      '4 王小东 waiting',
    ]);
  });
});

describe('reading the queue', () => {
  it('filters by status and name, pages, and audits each read', async () => {
    const waiting = await queueOf(t, desk.tech.token, bucketId(), { statuses: ['waiting'], limit: 2 });
    expect(waiting.count).toBe(3);
    expect(waiting.items).toHaveLength(2);
    expect(lines(await queueOf(t, desk.tech.token, bucketId(), { q: '钱' }))).toEqual(['3 钱七 waiting']);
    const audited = await t.db.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'calling.query'), eq(auditLogs.bucketId, bucketId())));
    expect(audited.length).toBeGreaterThan(5);
    expect(audited[0]).toMatchObject({ outcome: 'success', actorId: desk.tech.accountId });
  });

  it('refuses bad input (400), another group (404) and a caller without a calling action (403)', async () => {
    for (const body of [
      { bucketId: bucketId(), checkInDate: '2026-13-01' },
      { bucketId: bucketId(), limit: 101 },
      { bucketId: bucketId(), statuses: ['gone'] },
      { bucketId: bucketId(), q: 'x'.repeat(65) },
      {},
    ]) {
      expect((await t.as(desk.tech.token).post('queue-exams/query', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const get = (token: string, path: string) => t.as(token).get(`queue-exams/${path}`);
    expect((await get(desk.tech.token, `missed?bucketId=${bucketId()}&limit=0`)).statusCode).toBe(400);
    expect((await get(desk.tech.token, `missed?bucketId=${bucketId()}&limit=101`)).statusCode).toBe(400);
    expect((await get(desk.tech.token, `calling?bucketId=${bucketId()}&checkInDate=yesterday`)).statusCode).toBe(400);
    for (const res of [
      await t.as(other.tech.token).post('queue-exams/query', { bucketId: bucketId() }),
      await get(other.tech.token, `calling?bucketId=${bucketId()}`),
      await get(other.tech.token, `missed?bucketId=${bucketId()}`),
      await t.as(other.tech.token).post('queue-exams/call-next', { queueTypeId: ct.id }),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.body).not.toContain('王');
    }
    expect((await t.as(desk.doctor.token).post('queue-exams/query', { bucketId: bucketId() })).statusCode).toBe(403);
    expect((await t.as(desk.doctor.token).post('queue-exams/call-next', { queueTypeId: ct.id })).statusCode).toBe(403);
  });

  it('masks names (王*东) in a group with privacy on for a caller without view_privacy, and speaks the whole name only when allowed', async () => {
    const privateDesk = await makeDesk(t, { group: { enablePrivacy: true }, name: '隐私科' });
    const q = await makeQueueType(t, privateDesk, { displayName: 'CT', modality: 'CT' });
    await arrivePatient(t, privateDesk, { name: '王^小东', modality: 'CT' });
    const page = await queueOf(t, privateDesk.tech.token, privateDesk.org.bucketId);
    expect(page.items[0]).toMatchObject({ patientName: '王*东', masked: true });
    const url = `buckets/${privateDesk.org.bucketId}/calling-settings`;
    await t.as(privateDesk.registrar.token).put(url, { speakFullName: true });
    const called = await callNext(t, privateDesk.tech.token, q.id);
    expect(called.call).toMatchObject({ name: '王*东', text: '请 1 号 王小东 到 CT 检查' });
    expect(called.queueExam).toMatchObject({ patientName: '王*东', masked: true });
  });
});

describe('arrivals undone and exams performed at once', () => {
  it('checks in an exam Performed on arrival (imaging optional), and call-next passes over one whose arrival was cancelled', async () => {
    const us = await makeQueueType(t, desk, { displayName: 'US', modality: 'US' });
    const optional = await makeProcedure(t, bucketId(), { modality: 'US', imagingOptional: true });
    const first = await arrivePatient(t, desk, { name: '周^八', modality: 'US' });
    const performed = await register(
      t,
      desk.registrar.token,
      bucketId(),
      [{ procedureId: optional, scheduledDate: dayFromNow(t) }],
      {
        arrive: true,
        patient: { name: '吴^九', gender: 'F', birthDate: '19700101' },
      },
    );
    expect(performed.exams[0]!.status).toBe('Performed');
    expect(lines(await queue(us.id))).toEqual(['1 周八 waiting', '2 吴九 waiting']);
    const undone = await t.as(desk.registrar.token).post('registry/exam/status', {
      id: first.exams[0]!.id,
      action: 'cancelArrival',
    });
    expect(undone.statusCode, undone.body).toBe(200);
    expect((await callNext(t, desk.tech.token, us.id)).call).toMatchObject({ queueNo: 2, name: '吴*' });
    expect(await callNext(t, desk.tech.token, us.id)).toEqual({ queueExam: null, call: null });
  });

  it("takes a patient whose arrival the desk cancelled out of the queue (waiting or missed), keeping the others' numbers", async () => {
    const dx = await makeQueueType(t, desk, { displayName: 'DX', modality: 'DX' });
    const [a, b] = [
      await arrivePatient(t, desk, { name: '郑^一', modality: 'DX' }),
      await arrivePatient(t, desk, { name: '冯^二', modality: 'DX' }),
    ];
    await arrivePatient(t, desk, { name: '陈^三', modality: 'DX' });
    const called = await callNext(t, desk.tech.token, dx.id);
    await act(t, desk.tech.token, called.queueExam!.id, { action: 'pass' });
    const missedNames = async () =>
      lines(
        (await t.as(desk.tech.token).get(`queue-exams/missed?bucketId=${bucketId()}`)).json<{ items: QueueExam[] }>()
          .items,
      );
    expect(await missedNames()).toContain('1 郑一 missed');
    const waitingB = (await examOf(dx.id, 2)).id;
    const from = events.length;
    for (const r of [a, b]) {
      const undone = await t.as(desk.registrar.token).post('registry/exam/status', {
        id: r.exams[0]!.id,
        action: 'cancelArrival',
      });
      expect(undone.statusCode, undone.body).toBe(200);
    }
    expect(lines(await queue(dx.id))).toEqual(['3 陈三 waiting']);
    expect(await missedNames()).not.toContain('1 郑一 missed');
    const changedIds = async () =>
      (await eventsAfter(from, 2)).flatMap((e) => (e.type === 'queue.changed' ? [e.queueExamId] : []));
    for (let i = 0; i < 50 && !(await changedIds()).includes(waitingB); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(await changedIds()).toEqual(expect.arrayContaining([called.queueExam!.id, waitingB]));
    // arrived again, the patient takes a new number at the end
    const again = await t
      .as(desk.registrar.token)
      .post('registry/exam/status', { id: b.exams[0]!.id, action: 'arrive' });
    expect(again.statusCode, again.body).toBe(200);
    expect(lines(await queue(dx.id))).toEqual(['3 陈三 waiting', '4 冯二 waiting']);
  });

  it("never gives the day's highest number again when that patient's arrival is cancelled", async () => {
    const mg = await makeQueueType(t, desk, { displayName: 'MG', modality: 'MG' });
    await arrivePatient(t, desk, { name: '韩^一', modality: 'MG' });
    const last = await arrivePatient(t, desk, { name: '杨^二', modality: 'MG' });
    expect(lines(await queue(mg.id))).toEqual(['1 韩一 waiting', '2 杨二 waiting']);
    const undone = await t.as(desk.registrar.token).post('registry/exam/status', {
      id: last.exams[0]!.id,
      action: 'cancelArrival',
    });
    expect(undone.statusCode, undone.body).toBe(200);
    await arrivePatient(t, desk, { name: '朱^三', modality: 'MG' });
    expect(lines(await queue(mg.id))).toEqual(['1 韩一 waiting', '3 朱三 waiting']);
  });
});
