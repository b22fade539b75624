import type { SharedReport, ShareLink, ShareLinkCreated } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportShareLinks } from '../../db/schema.js';
import { makeHospital, signInStaff, type Hospital } from '../../test/factories-reports.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { act, addKeyImage, approvedReport, auditRows, content, newExam } from './report-sharing.fixture.js';

let t: TestApp;
let h: Hospital;
let tok: Record<string, string> = {};
let radiology = '';

const share = (who: string, examId: string, body: unknown = {}) =>
  t.as(tok[who]!).post(`reports/${examId}/share`, body);
async function shared(examId: string, body: unknown = {}): Promise<ShareLinkCreated> {
  const res = await share('doctor', examId, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as ShareLinkCreated;
}
/** An anonymous visitor opens the link. */
const open = (link: string, extra = '') => t.call('GET', `share/report?link=${encodeURIComponent(link)}${extra}`);

function expectShareHeaders(res: { headers: Record<string, unknown> }) {
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(String(res.headers['x-robots-tag'])).toContain('noindex');
}

const login = () => signInStaff(t, h);

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  h = await makeHospital(t, ['doctor', 'senior', 'tech', 'teleadmin', 'groupadmin']);
  ({ tok, radiology } = h);
});
afterAll(async () => {
  await t.close();
});

describe('share link lifecycle', () => {
  it('shares an approved report; an anonymous visitor sees it with its printed key images; every view is audited', async () => {
    const examId = await newExam(t, radiology, { patientName: '张^三丰' });
    const printed = await addKeyImage(t, tok.doctor!, examId, '右肺');
    const hidden = await addKeyImage(t, tok.doctor!, examId, '草稿');
    const patch = await t.call('PATCH', `reports/${examId}/images/${hidden}`, {
      token: tok.doctor!,
      body: { isPrinted: false },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    // Not approved yet: nothing to share.
    expect((await share('doctor', examId)).statusCode).toBe(409);
    await approvedReport(t, { doctor: tok.doctor!, senior: tok.senior! }, examId);

    const link = await shared(examId);
    expect(link.kind).toBe('share');
    expect(Buffer.from(link.linkId, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(link.url).toBe(`/reports/s?link=${link.linkId}`);
    expect(Date.parse(link.expiresAt) - t.clock.now().getTime()).toBe(7 * 24 * 3600_000);
    // Only the hash is stored.
    const [row] = await t.db.database.db.select().from(reportShareLinks).where(eq(reportShareLinks.id, link.id));
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(link.linkId);

    const res = await open(link.linkId);
    expect(res.statusCode, res.body).toBe(200);
    expectShareHeaders(res);
    const view = res.json() as SharedReport;
    expect(view).toMatchObject({
      kind: 'share',
      state: 'current',
      superseded: false,
      examId,
      reportId: examId,
      organizationName: '仁和医院 放射科',
      patientName: '张*丰',
      patientSex: expect.any(String),
      report: {
        findings: '双肺纹理清晰，未见实质性病变。',
        conclusion: '胸部CT平扫未见异常。',
        reporter: '李医生',
        approver: '王主任',
        approvedAt: expect.any(String),
      },
      viewerPath: null,
    });
    expect(view.images.map((i) => i.id)).toEqual([printed]);
    // The image link works without a token.
    const image = await t.call('GET', view.images[0]!.url);
    expect(image.statusCode).toBe(200);
    // The patient id never travels on a shared page.
    expect(res.body).not.toContain('SHR-');

    const audit = await auditRows(t, 'report.share_view', examId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ outcome: 'success', bucketId: radiology });
    expect(audit[0]!.details).toMatchObject({ shareId: link.id, kind: 'share', state: 'current' });
    expect((await auditRows(t, 'report.share', examId)).length).toBe(1);
    await open(link.linkId);
    const list = (await t.as(tok.doctor!).get(`reports/${examId}/shares`)).json() as { links: ShareLink[] };
    expect(list.links).toHaveLength(1);
    expect(list.links[0]).toMatchObject({ id: link.id, state: 'live', viewCount: 2, superseded: false });
    expect(JSON.stringify(list)).not.toContain(link.linkId);
  });

  it('expires, and then answers exactly as an unknown or malformed link does', async () => {
    const examId = await newExam(t, radiology);
    await approvedReport(t, { doctor: tok.doctor!, senior: tok.senior! }, examId);
    const link = await shared(examId, { expiresInDays: 1 });
    expect((await open(link.linkId)).statusCode).toBe(200);
    t.clock.advance(24 * 3600_000 + 1000);
    // Sessions last an hour: sign in again on the new day.
    await login();
    const expired = await open(link.linkId);
    const guessed = await open(Buffer.alloc(24, 7).toString('base64url'));
    const malformed = await open('not a link!');
    const missing = await t.call('GET', 'share/report');
    for (const res of [expired, guessed, malformed, missing]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ code: 'LinkInvalid', message: 'The link is invalid or has expired' });
      expectShareHeaders(res);
    }
    const denied = (await auditRows(t, 'report.share_view', examId)).filter((r) => r.outcome === 'denied');
    expect(denied).toHaveLength(1);
    const list = (await t.as(tok.doctor!).get(`reports/${examId}/shares`)).json() as { links: ShareLink[] };
    expect(list.links[0]).toMatchObject({ state: 'expired', viewCount: 1 });
  });

  it('is revoked by a doctor of the organization, at once', async () => {
    const examId = await newExam(t, radiology);
    await approvedReport(t, { doctor: tok.doctor!, senior: tok.senior! }, examId);
    const link = await shared(examId);
    const revoked = await t.as(tok.senior!).post(`reports/${examId}/shares/${link.id}/revoke`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toMatchObject({ id: link.id, state: 'revoked', revokedAt: expect.any(String) });
    const res = await open(link.linkId);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'LinkInvalid' });
    // Another report's link id is not this report's.
    const other = await newExam(t, radiology);
    expect((await t.as(tok.senior!).post(`reports/${other}/shares/${link.id}/revoke`)).statusCode).toBe(404);
  });

  it('shows a recalled report as superseded without its text, and the corrected one when approved again', async () => {
    const examId = await newExam(t, radiology);
    await approvedReport(t, { doctor: tok.doctor!, senior: tok.senior! }, examId);
    const link = await shared(examId);
    await act(t, tok.senior!, examId, 'recall', { reason: '补充既往史' });

    let view = (await open(link.linkId)).json() as SharedReport;
    expect(view).toMatchObject({ state: 'withdrawn', superseded: true, report: null, images: [], viewerPath: null });
    expect(view.hint).toContain('withdrawn');
    expect(JSON.stringify(view)).not.toContain('双肺纹理');

    // While it is being corrected, the new text never shows.
    const detail = (await t.as(tok.doctor!).get(`reports/${examId}/detail`)).json() as { version: number };
    await act(t, tok.doctor!, examId, 'submit', {
      version: detail.version,
      content: content('右肺上叶小结节，约4mm。', '右肺上叶微小结节，建议随访。'),
    });
    view = (await open(link.linkId)).json() as SharedReport;
    expect(view.state).toBe('withdrawn');
    expect(JSON.stringify(view)).not.toContain('右肺上叶');

    // Approved again: the same link shows the current version, marked as updated.
    await act(t, tok.senior!, examId, 'approve', {});
    view = (await open(link.linkId)).json() as SharedReport;
    expect(view).toMatchObject({
      state: 'updated',
      superseded: true,
      supersededAt: expect.any(String),
      report: { conclusion: '右肺上叶微小结节，建议随访。' },
    });
    const list = (await t.as(tok.doctor!).get(`reports/${examId}/shares`)).json() as { links: ShareLink[] };
    expect(list.links[0]!.superseded).toBe(true);
  });

  it('opens the images read-only when the link allows them', async () => {
    const examId = await newExam(t, radiology);
    await approvedReport(t, { doctor: tok.doctor!, senior: tok.senior! }, examId);
    const link = await shared(examId, { allowImages: true, expiresInDays: 3 });
    const view = (await open(link.linkId)).json() as SharedReport;
    expect(view.viewerPath).toMatchObject({ url: expect.stringMatching(/^\/viewer\//) });
    const context = await t.call('GET', 'viewer/context', { headers: { 'x-yyp-viewer': view.viewerPath!.openpath } });
    expect(context.statusCode, context.body).toBe(200);
    expect(context.json()).toMatchObject({ kind: 'share', examId, masked: true, canCapture: false });
  });

  it('refuses bad input, callers without the rights, and other organizations', async () => {
    const examId = await newExam(t, radiology);
    await approvedReport(t, { doctor: tok.doctor!, senior: tok.senior! }, examId);
    expect((await share('doctor', examId, { expiresInDays: 0 })).statusCode).toBe(400);
    expect((await share('doctor', examId, { expiresInDays: 91 })).statusCode).toBe(400);
    // The technician may not print, so may not share.
    expect((await share('tech', examId)).statusCode).toBe(403);
    // Another group sees nothing.
    expect((await share('teleadmin', examId)).statusCode).toBe(404);
    expect((await t.as(tok.teleadmin!).get(`reports/${examId}/shares`)).statusCode).toBe(404);
    // No token: 401.
    expect((await t.call('POST', `reports/${examId}/share`, { body: {} })).statusCode).toBe(401);
  });
});
