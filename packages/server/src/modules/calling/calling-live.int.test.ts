import { queueTopic, type QueueEvent, type QueueType, type ScreenQueue } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveUrl, subscribedProbe, type LiveProbe } from '../../platform/live.fixture.js';
import {
  act,
  arrivePatient,
  callNext,
  issueScreenToken,
  makeQueueType,
  screenRead,
} from '../../test/factories-calling.js';
import { makeDesk, type Desk } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * Issue 23 "Done when", on the server: the registrar marks a patient arrived on instance A, the
 * technician of CT room 1 presses call-next on A, and the waiting-room screen, connected with its
 * screen token to instance B over the live socket, hears "3 号 王*东 → CT 1" within a second;
 * the patient who does not come is passed to the missed list. Two instances on one database:
 * LISTEN/NOTIFY on PostgreSQL, one in-process bus on PGlite.
 */
let a: TestApp;
let b: TestApp;
let desk: Desk;
let ct: QueueType;
let screen: LiveProbe;
let screenToken: string;
/** the queue exam of 王小东, number 3 */
let wangId: string;
const probes: LiveProbe[] = [];

beforeAll(async () => {
  a = await startTestApp({ seed: false });
  b = await startTestApp({ db: a.db, clock: a.clock, seed: false });
  desk = await makeDesk(a, { name: '放射科' });
  ct = await makeQueueType(a, desk, { displayName: 'CT', modality: 'CT', roomName: 'CT 1' });
  screenToken = (await issueScreenToken(a, desk)).token;
  await Promise.all([a.services.live.ready(), b.services.live.ready()]);
  screen = await subscribedProbe(await liveUrl(b), screenToken, [queueTopic(desk.org.bucketId)], 'Screen');
  probes.push(screen);
});
afterAll(async () => {
  for (const p of probes) p.close();
  await b?.close();
  await a?.close();
});

const queueEvent = (type: QueueEvent['type'], match: (e: QueueEvent) => boolean = () => true) =>
  screen.next((m) => m.type === 'event' && (m.event as QueueEvent).type === type && match(m.event as QueueEvent), 1000);

describe('a call on instance A reaches a screen on instance B', () => {
  it('tells the screen of each arrival', async () => {
    for (const name of ['李^四', '张^三丰', '王^小东']) {
      const heard = queueEvent('queue.changed', (e) => e.queueExamId !== undefined);
      await arrivePatient(a, desk, { name, modality: 'CT' });
      await heard;
      screen.messages.length = 0;
    }
  });

  it('announces "3 号 王*东 → CT 1" within a second of call-next, and the screen reads it from B', async () => {
    await callNext(a, desk.tech.token, ct.id);
    await callNext(a, desk.tech.token, ct.id);
    screen.messages.length = 0;
    const started = Date.now();
    const heard = queueEvent('queue.called', (e) => e.call?.queueNo === 3);
    const called = await callNext(a, desk.tech.token, ct.id);
    wangId = called.queueExam!.id;
    const event = (await heard) as { event: QueueEvent };
    expect(Date.now() - started).toBeLessThan(1000);
    expect(event.event).toMatchObject({
      bucketId: desk.org.bucketId,
      queueExamId: called.queueExam!.id,
      call: { queueNo: 3, name: '王*东', room: 'CT 1', text: '请 3 号 王*东 到 CT 1 检查' },
    });
    const read = await screenRead(b, screenToken);
    expect(read.statusCode).toBe(200);
    expect((read.json() as ScreenQueue).calls[0]).toMatchObject({ queueNo: 3, name: '王*东', room: 'CT 1' });
  });

  it('tells the screen of a pass, and shows the patient in the missed list', async () => {
    const heard = queueEvent('queue.changed', (e) => e.queueExamId === wangId);
    await act(a, desk.tech.token, wangId, { action: 'pass' });
    await heard;
    const read = (await screenRead(b, screenToken)).json() as ScreenQueue;
    expect(read.missed).toEqual([expect.objectContaining({ queueExamId: wangId, queueNo: 3, name: '王*东' })]);
    // the room's last call was passed: it calls nobody now
    expect(read.calls).toEqual([]);
  });

  it("refuses the queue's topic to a screen of another organization and to an account without a calling action", async () => {
    const other = await makeDesk(a, { name: '乙城放射科' });
    const otherScreen = await subscribedProbe(await liveUrl(b), (await issueScreenToken(a, other)).token, [], 'Screen');
    probes.push(otherScreen);
    otherScreen.send({ type: 'subscribe', topic: queueTopic(desk.org.bucketId) });
    expect(await otherScreen.next((m) => m.type === 'error')).toMatchObject({ code: 'Forbidden' });
    const doctor = await subscribedProbe(await liveUrl(b), desk.doctor.token, []);
    probes.push(doctor);
    doctor.send({ type: 'subscribe', topic: queueTopic(desk.org.bucketId) });
    expect(await doctor.next((m) => m.type === 'error')).toMatchObject({ code: 'Forbidden' });
    const tech = await subscribedProbe(await liveUrl(b), desk.tech.token, [queueTopic(desk.org.bucketId)]);
    probes.push(tech);
  });
});
