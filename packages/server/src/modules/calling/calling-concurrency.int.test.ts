import type { QueueActionResult, QueueType } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeQueueType, queueOf } from '../../test/factories-calling.js';
import { dayFromNow, makeDesk, register, type Desk } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * Two rooms pressing at once never call the same patient (issue 23 "call-next is atomic"): real
 * parallel HTTP requests against a listening server. On PostgreSQL (a pool of connections) the
 * transactions overlap and the queue's row lock orders them; on PGlite they run one by one.
 * Arrivals at once likewise never share a number.
 */
let t: TestApp;
let desk: Desk;
let ct: QueueType;
let base: string;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  desk = await makeDesk(t, { name: '放射科' });
  ct = await makeQueueType(t, desk, { displayName: 'CT', modality: 'CT' });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await t.close();
});

const post = async (token: string, path: string, body: unknown) => {
  const res = await fetch(`${base}/yyp/api/v1/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as unknown };
};

describe('parallel calls on one queue', () => {
  it('number 12 arrivals at once 1 to 12, each once', async () => {
    const exams = [];
    for (let i = 0; i < 12; i++) {
      const reg = await register(
        t,
        desk.registrar.token,
        desk.org.bucketId,
        [{ modality: 'CT', scheduledDate: dayFromNow(t) }],
        {
          patient: { name: `病人^${i}`, gender: 'F', birthDate: '19900101', patientId: `PID-${i}` },
        },
      );
      exams.push(reg.exams[0]!.id);
    }
    const arrived = await Promise.all(
      exams.map((id) => post(desk.registrar.token, 'registry/exam/status', { id, action: 'arrive' })),
    );
    expect(arrived.map((r) => r.status)).toEqual(exams.map(() => 200));
    const page = await queueOf(t, desk.tech.token, desk.org.bucketId);
    expect(page.items.map((e) => e.queueNo)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(new Set(page.items.map((e) => e.scheduledExamId))).toEqual(new Set(exams));
  });

  it('20 call-next at once call each of the 12 waiting patients once and 8 find nobody', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(desk.tech.token, 'queue-exams/call-next', { queueTypeId: ct.id, room: `CT ${i % 2}` }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const called = answers.map((a) => (a.body as QueueActionResult).queueExam).filter((e) => e !== null);
    expect(called).toHaveLength(12);
    expect(called.map((e) => e.queueNo).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    const page = await queueOf(t, desk.tech.token, desk.org.bucketId);
    expect(page.items.map((e) => [e.status, e.calledCount])).toEqual(page.items.map(() => ['called', 1]));
  });
});
