import type {
  PublishDetail,
  PublishedCoExam,
  PublishedPastExam,
  PublishPage,
  PublishResult,
  SharedReport,
} from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHospital } from '../../test/factories-reports.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { act, approvedReport, auditRows, newExam } from './report-sharing.fixture.js';

let t: TestApp;
let tok: Record<string, string> = {};
let radiology = '';
let ultrasound = '';

const publish = (who: string, examIds: string[], extra: object = {}) =>
  t.as(tok[who]!).post('orders/publish-reports', { examIds, ...extra });
const page = async (who: string, body: object = {}) => {
  const res = await t.as(tok[who]!).post('report-publish/page-query', { skip: 0, limit: 10, ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as PublishPage;
};
const list = async <T>(kind: 'co' | 'past', examId: string, link: string) => {
  const res = await t.call(
    'GET',
    `publishers/find-${kind}-exams?examId=${encodeURIComponent(examId)}&shareLinkId=${encodeURIComponent(link)}`,
  );
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  return res.json() as T[];
};

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  // The senior approves in radiology with order_report_publish; the doctor reports without it.
  ({ tok, radiology, ultrasound } = await makeHospital(t, ['doctor', 'senior', 'teleadmin']));
});
afterAll(async () => {
  await t.close();
});

describe('publishing reports', () => {
  it('publishes approved reports, says why not for the rest, and lists them', async () => {
    const patientId = 'PUB-001';
    const a = await newExam(t, radiology, { patientId, accession: 'ACC-PUB-A' });
    const b = await newExam(t, radiology, { patientId, accession: 'ACC-PUB-B' });
    const draft = await newExam(t, radiology, { patientId });
    const elsewhere = await newExam(t, ultrasound, { patientId });
    await approvedReport(t, { doctor: tok.doctor!, senior: tok.senior! }, a);
    await approvedReport(t, { doctor: tok.doctor!, senior: tok.senior! }, b);

    // The doctor holds no order_report_publish: every exam is refused.
    const refused = (await publish('doctor', [a])).json() as PublishResult;
    expect(refused.results).toEqual([{ examId: a, ok: false, reportId: a, link: null, reason: 'forbidden' }]);
    expect((await publish('senior', [])).statusCode).toBe(400);
    expect(
      (
        await publish(
          'senior',
          Array.from({ length: 101 }, (_, i) => `x${i}`),
        )
      ).statusCode,
    ).toBe(400);

    const res = await publish('senior', [a, b, draft, elsewhere, 'no-such-exam', a]);
    expect(res.statusCode, res.body).toBe(200);
    const { results } = res.json() as PublishResult;
    expect(results.map((r) => [r.examId, r.ok, r.reason])).toEqual([
      [a, true, null],
      [b, true, null],
      [draft, false, 'notApproved'],
      // The senior is a content manager of ultrasound, where the role does not grant publishing.
      [elsewhere, false, 'forbidden'],
      ['no-such-exam', false, 'notFound'],
    ]);
    const linkA = results[0]!.link!;
    expect(linkA).toMatchObject({ kind: 'publish', url: `/reports/s?link=${linkA.linkId}` });
    expect(Date.parse(linkA.expiresAt) - t.clock.now().getTime()).toBe(30 * 24 * 3600_000);
    expect((await auditRows(t, 'report.publish', a)).length).toBe(1);

    // The anonymous page of a publish link.
    const view = (await t.call('GET', `share/report?link=${linkA.linkId}`)).json() as SharedReport;
    expect(view).toMatchObject({ kind: 'publish', state: 'current', examId: a });

    // The publish list, masked for the senior only where it lacks view_privacy.
    const listed = await page('senior');
    expect(listed.count).toBe(2);
    expect(listed.data.map((r) => r.examId).sort()).toEqual([a, b].sort());
    expect(listed.data[0]).toMatchObject({
      state: 'live',
      superseded: false,
      publishedBy: '王主任',
      bucketName: '放射科',
    });
    expect(listed.data.find((r) => r.examId === a)).toMatchObject({ viewCount: 1, accessionNumber: 'ACC-PUB-A' });
    const filtered = await page('senior', { filters: [{ field: 'patientId', values: [patientId] }], limit: 1 });
    expect(filtered).toMatchObject({ count: 2 });
    expect(filtered.data).toHaveLength(1);
    expect((await page('senior', { filters: [{ field: 'state', values: ['revoked'] }] })).count).toBe(0);
    expect((await page('senior', { bucketId: radiology })).count).toBe(2);
    // The doctor may not publish: its list is empty; asking for radiology by name is refused.
    expect((await page('doctor')).count).toBe(0);
    expect((await t.as(tok.doctor!).post('report-publish/page-query', { bucketId: radiology })).statusCode).toBe(403);
    expect((await t.as(tok.teleadmin!).post('report-publish/page-query', { bucketId: radiology })).statusCode).toBe(
      404,
    );

    // The detail: the report as the publish link shows it, and its links.
    const detail = await t.as(tok.senior!).get(`report-publish/detail?examId=${a}&reportId=${a}`);
    expect(detail.statusCode, detail.body).toBe(200);
    const d = detail.json() as PublishDetail;
    expect(d.report).toMatchObject({ kind: 'publish', state: 'current', patientName: '张^三丰' });
    expect(d.links).toHaveLength(1);
    expect(JSON.stringify(d)).not.toContain(linkA.linkId);
    expect((await t.as(tok.senior!).get(`report-publish/detail?examId=${a}&reportId=${b}`)).statusCode).toBe(404);
    expect((await t.as(tok.doctor!).get(`report-publish/detail?examId=${a}&reportId=${a}`)).statusCode).toBe(403);
    expect((await t.as(tok.teleadmin!).get(`report-publish/detail?examId=${a}&reportId=${a}`)).statusCode).toBe(404);

    // Publishing again replaces the live publish link.
    const again = (await publish('senior', [a])).json() as PublishResult;
    expect((await t.call('GET', `share/report?link=${linkA.linkId}`)).statusCode).toBe(403);
    expect((await t.call('GET', `share/report?link=${again.results[0]!.link!.linkId}`)).statusCode).toBe(200);
  });

  it('takes the token the body carries (spec 001 §8), and refuses a call with none or a bad one', async () => {
    const exam = await newExam(t, radiology, { patientId: 'PUB-TOKEN' });
    await approvedReport(t, { doctor: tok.doctor!, senior: tok.senior! }, exam);
    const call = (body: object) => t.call('POST', 'orders/publish-reports', { body });
    const res = await call({ token: tok.senior, examIds: [exam] });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as PublishResult).results).toMatchObject([{ examId: exam, ok: true, reason: null }]);
    // The doctor's token in the body: the doctor is the caller (no order_report_publish).
    const asDoctor = (await call({ token: tok.doctor, examIds: [exam] })).json() as PublishResult;
    expect(asDoctor.results).toMatchObject([{ examId: exam, ok: false, reason: 'forbidden' }]);
    expect((await call({ examIds: [exam] })).statusCode).toBe(401);
    expect((await call({ token: 'not-a-token', examIds: [exam] })).statusCode).toBe(401);
  });

  it("lists the patient's other published reports and co-written exams for anonymous viewers, [] on any failure", async () => {
    const patientId = 'PUB-002';
    const main = await newExam(t, radiology, { patientId });
    const co = await newExam(t, radiology, { patientId });
    const past = await newExam(t, radiology, { patientId });
    const unpublished = await newExam(t, radiology, { patientId });
    const added = await t.as(tok.doctor!).post(`reports/${main}/co-exams/add`, { examIds: [co] });
    expect(added.statusCode, added.body).toBe(200);
    await approvedReport(t, { doctor: tok.doctor!, senior: tok.senior! }, main);
    await approvedReport(t, { doctor: tok.doctor!, senior: tok.senior! }, past);
    await approvedReport(t, { doctor: tok.doctor!, senior: tok.senior! }, unpublished);
    const { results } = (await publish('senior', [main, past])).json() as PublishResult;
    const link = results[0]!.link!.linkId;
    const pastLink = results[1]!.link!.linkId;

    const coExams = await list<PublishedCoExam>('co', main, link);
    expect(coExams.map((e) => e.examId)).toEqual([co]);
    // Asked from the co-written exam, the primary is the other one.
    expect((await list<PublishedCoExam>('co', co, link)).map((e) => e.examId)).toEqual([main]);
    const pastExams = await list<PublishedPastExam>('past', main, link);
    expect(pastExams.map((e) => e.examId)).toEqual([past]);
    expect(pastExams[0]).toMatchObject({ reportId: past, approvedAt: expect.any(String) });

    // The link opens that past report too, but not an unpublished one.
    const opened = await t.call('GET', `share/report?link=${link}&examId=${past}`);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({ examId: past, state: 'current' });
    expect((await t.call('GET', `share/report?link=${link}&examId=${unpublished}`)).statusCode).toBe(403);

    // Any failure: an empty list.
    expect(await list('co', main, pastLink)).toEqual([]);
    expect(await list('past', past, link)).toEqual([]);
    expect(await list('co', main, 'wrong-link-id-0000000000000')).toEqual([]);
    expect(await list('past', main, '')).toEqual([]);
    expect(await list('co', '', link)).toEqual([]);
    const junk = await t.call('GET', `publishers/find-past-exams?examId=${'x'.repeat(500)}&shareLinkId[]=1`);
    expect(junk.statusCode).toBe(200);
    expect(junk.json()).toEqual([]);

    // A doctor's share link reaches its one report: no past reports.
    const shared = await t.as(tok.doctor!).post(`reports/${main}/share`, {});
    expect(await list('past', main, (shared.json() as { linkId: string }).linkId)).toEqual([]);

    // Recalled: the lists close with the report.
    await act(t, tok.senior!, main, 'recall', { reason: '更正' });
    expect(await list('co', main, link)).toEqual([]);
    expect(await list('past', main, link)).toEqual([]);
  });
});
