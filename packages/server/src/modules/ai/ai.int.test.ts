import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exams } from '../../db/schema.js';
import { bucket, fx, id, ingest, login, tok, useExamListFixture } from '../exams/exams.list.fixture.js';

useExamListFixture();

/** A stand-in AI service on loopback: answers with the queued statuses and records what it got. */
const received: Record<string, unknown>[] = [];
const statuses: number[] = [];
let server: http.Server;
let serviceUrl = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(JSON.parse(body) as Record<string, unknown>);
      res.statusCode = statuses.shift() ?? 202;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serviceUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/analyze`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const aiStatus = async (examId: string) =>
  (
    await fx.t.db.database.db.select({ s: exams.aiStatus, r: exams.aiResult }).from(exams).where(eq(exams.id, examId))
  )[0]!;
const configure = async (url: string) => {
  const admin = await login('groupadmin');
  const res = await fx.t.as(admin).post(`groups/${fx.hospitalGroupId}/update`, { settings: { aiServiceUrl: url } });
  expect(res.statusCode, res.body).toBe(200);
};

describe('POST exams/{id}/ai/task', () => {
  it('says clearly when the group has no AI service, and changes nothing', async () => {
    const res = await fx.t.as(tok.senior!).post(`exams/${id.A}/ai/task`, {});
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('ServiceNotConfigured');
    expect((await aiStatus(id.A!)).s).toBe('');
  });

  it('flags an exam that is not a chest CT, then sends it when asked to', async () => {
    await configure(serviceUrl);
    const dx = await fx.t.as(tok.senior!).post(`exams/${id.B}/ai/task?bucketId=${bucket['RH-RAD']}`, {});
    expect(dx.statusCode).toBe(409);
    expect(dx.json()).toMatchObject({ code: 'NotChestCt', details: { modality: 'MR', bodyPart: 'HEAD' } });
    expect((await aiStatus(id.B!)).s).toBe('');
    const forced = await fx.t.as(tok.senior!).post(`exams/${id.B}/ai/task`, { force: true });
    expect(forced.statusCode, forced.body).toBe(200);
    expect(forced.json()).toMatchObject({ id: id.B, aiStatus: 'queued' });
    // Once queued, not again.
    expect((await fx.t.as(tok.senior!).post(`exams/${id.B}/ai/task`, { force: true })).statusCode).toBe(409);
  });

  it('posts the study links to the service, retrying until it takes it, and takes its result', async () => {
    const chest = await ingest(bucket['RH-RAD'] ?? '', {
      modality: 'CT',
      bodyPartExamined: 'CHEST',
      patientId: 'AI-1',
    });
    statuses.push(500, 503);
    received.length = 0;
    const res = await fx.t.as(tok.senior!).post(`exams/${chest}/ai/task`, {});
    expect(res.statusCode, res.body).toBe(200);
    const jobs = fx.t.services.jobs;
    // B (forced above) and this one: both fail once, then B is taken and this fails again.
    await jobs.runDue();
    expect((await aiStatus(chest)).s).toBe('queued');
    fx.t.clock.advance(31_000);
    await jobs.runDue();
    fx.t.clock.advance(121_000);
    await jobs.runDue();
    expect((await aiStatus(chest)).s).toBe('sent');
    const sent = received.filter((r) => r.examId === chest);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    const last = sent.at(-1)!;
    expect(last).toMatchObject({ examId: chest, modality: 'CT', bodyPart: 'CHEST' });
    expect(String(last.studyUrl)).toMatch(/\/yyp\/api\/v1\/studies\/download\?token=/);

    // The study link really downloads the study, without an account.
    const link = new URL(String(last.studyUrl));
    const zip = await fx.t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(zip.statusCode).toBe(200);
    expect(zip.rawPayload.subarray(0, 2).toString()).toBe('PK');

    // The service calls back with its result.
    const callback = new URL(String(last.callbackUrl));
    const done = await fx.t.app.inject({
      method: 'POST',
      url: `${callback.pathname}${callback.search}`,
      payload: { status: 'done', summary: '右肺上叶结节 6mm', findings: [{ label: 'nodule', size: 6 }] },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(await aiStatus(chest)).toMatchObject({ s: 'done', r: { summary: '右肺上叶结节 6mm' } });
    const listed = (await fx.t.as(tok.senior!).get(`exams/${chest}`)).json();
    expect(listed.aiStatus).toBe('done');

    // A tampered callback link opens nothing.
    const bad = await fx.t.app.inject({
      method: 'POST',
      url: `${callback.pathname}${callback.search}x`,
      payload: { status: 'failed' },
    });
    expect(bad.statusCode).toBe(403);
    expect(bad.json().code).toBe('LinkInvalid');
  });

  it('marks the exam failed after the last attempt', async () => {
    const chest = await ingest(bucket['RH-RAD'] ?? '', {
      modality: 'CT',
      bodyPartExamined: 'CHEST',
      patientId: 'AI-2',
    });
    statuses.push(500, 500, 500);
    expect((await fx.t.as(tok.senior!).post(`exams/${chest}/ai/task`, {})).statusCode).toBe(200);
    for (const wait of [0, 31_000, 121_000]) {
      fx.t.clock.advance(wait);
      await fx.t.services.jobs.runDue();
    }
    expect((await aiStatus(chest)).s).toBe('failed');
  });

  it("keeps to the caller's organizations and actions", async () => {
    expect((await fx.t.as(tok.doctor!).post(`exams/${id.F}/ai/task`, {})).statusCode).toBe(404);
    expect((await fx.t.as(tok.senior!).post(`exams/${id.A}/ai/task?bucketId=${bucket['RH-US']}`, {})).statusCode).toBe(
      404,
    );
    // The registrar holds exam_get but not exam_update.
    const registrar = await login('registrar');
    expect((await fx.t.as(registrar).post(`exams/${id.A}/ai/task`, {})).statusCode).toBe(403);
  });
});
