import type { SharedReport, WebSecret, WebSecretStatus } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupIntegrations } from '../../db/schema.js';
import { makeHospital } from '../../test/factories-reports.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { approvedReport, auditRows, newExam } from './report-sharing.fixture.js';
import { signWebReport } from './web-integration.service.js';

let t: TestApp;
let tok: Record<string, string> = {};
let radiology = '';
let secret = '';

/** The hospital group and the teleradiology group. */
let renhe = '';
let teleGroup = '';
const nowS = () => Math.floor(t.clock.now().getTime() / 1000);

/** A /web link as a hospital system signs it. */
function webUrl(fields: Record<string, string>, key = secret, tamper: Record<string, string> = {}): string {
  const signature = signWebReport(key, fields);
  const q = new URLSearchParams({ ...fields, ...tamper, signature });
  return `web-report?${q.toString()}`;
}
const fields = (over: Record<string, string> = {}) => ({
  groupId: renhe,
  patientId: 'WEB-001',
  expires: String(nowS() + 600),
  timestamp: String(nowS()),
  ...over,
});

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const h = await makeHospital(t, ['doctor', 'senior', 'groupadmin', 'teleadmin']);
  ({ tok, radiology, groupId: renhe, teleGroupId: teleGroup } = h);
});
afterAll(async () => {
  await t.close();
});

describe('the group web secret', () => {
  it('is set and rotated by the group admin only, and answered only then', async () => {
    const before = (
      await t.as(tok.groupadmin!).get(`groups/${renhe}/integration/web-secret`)
    ).json() as WebSecretStatus;
    expect(before).toEqual({ configured: false, createdAt: null, rotatedAt: null });
    expect((await t.as(tok.senior!).post(`groups/${renhe}/integration/web-secret`)).statusCode).toBe(403);
    expect((await t.as(tok.teleadmin!).post(`groups/${renhe}/integration/web-secret`)).statusCode).toBe(404);
    const first = (await t.as(tok.groupadmin!).post(`groups/${renhe}/integration/web-secret`)).json() as WebSecret;
    expect(first.secret.length).toBeGreaterThanOrEqual(43);
    expect(first.rotatedAt).toBeNull();
    const res = await t.as(tok.groupadmin!).post(`groups/${renhe}/integration/web-secret`);
    const second = res.json() as WebSecret;
    expect(second.secret).not.toBe(first.secret);
    expect(second.rotatedAt).not.toBeNull();
    secret = second.secret;
    const after = await t.as(tok.groupadmin!).get(`groups/${renhe}/integration/web-secret`);
    expect(after.json()).toMatchObject({ configured: true });
    expect(after.body).not.toContain(secret);
    // Kept sealed at rest: the database row does not hold the secret.
    const [row] = await t.db.database.db.select().from(groupIntegrations).where(eq(groupIntegrations.groupId, renhe));
    expect(row!.webSecret.startsWith('v1.')).toBe(true);
    expect(row!.webSecret).not.toContain(secret);
  });
});

describe('GET web-report', () => {
  it("opens the group's approved report of a signed patient and order, audited", async () => {
    const older = await newExam(t, radiology, { patientId: 'WEB-001', accession: 'ACC-WEB-1', patientName: '李^小龙' });
    const newer = await newExam(t, radiology, { patientId: 'WEB-001', accession: 'ACC-WEB-2', patientName: '李^小龙' });
    await approvedReport(t, { doctor: tok.doctor!, senior: tok.senior! }, older);
    t.clock.advance(60_000);
    await approvedReport(t, { doctor: tok.doctor!, senior: tok.senior! }, newer);

    // The latest approved report of the patient.
    let res = await t.call('GET', webUrl(fields()));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    let view = res.json() as SharedReport;
    expect(view).toMatchObject({
      kind: 'web',
      state: 'current',
      examId: newer,
      patientName: '李^小龙',
      viewerPath: null,
      exam: { accessionNumber: 'ACC-WEB-2', extra: null },
    });

    // The order names one exam; openImage adds a viewer share path, showExtra the clinical context.
    res = await t.call('GET', webUrl(fields({ serviceRequestId: 'ACC-WEB-1', openImage: '1', showExtra: '1' })));
    expect(res.statusCode, res.body).toBe(200);
    view = res.json() as SharedReport;
    expect(view.examId).toBe(older);
    expect(view.viewerPath?.url).toMatch(/^\/viewer\//);
    expect(view.exam.extra).toMatchObject({ clinicImpression: '' });
    const audit = await auditRows(t, 'report.web_view', older);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ outcome: 'success', patientId: 'WEB-001' });

    // A valid signature for a patient without an approved report: not found.
    res = await t.call('GET', webUrl(fields({ patientId: 'WEB-NONE' })));
    expect(res.statusCode).toBe(404);
  });

  it('refuses expired, forged, tampered, future-dated and other groups’ links with one error', async () => {
    const refused = async (url: string) => {
      const res = await t.call('GET', url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ code: 'LinkInvalid', message: 'The signed link is invalid or has expired' });
    };
    await refused(webUrl(fields({ expires: String(nowS() - 1) })));
    await refused(webUrl(fields({ timestamp: String(nowS() + 11 * 60) })));
    await refused(webUrl(fields(), 'a-forged-secret'));
    await refused(webUrl(fields(), secret, { patientId: 'WEB-002' }));
    await refused(webUrl(fields(), secret, { openImage: '1' }));
    await refused(`web-report?${new URLSearchParams({ ...fields(), signature: 'zz' }).toString()}`);
    // The teleradiology group's own secret does not open the hospital group's reports, nor does ours its.
    const tele = (await t.as(tok.teleadmin!).post(`groups/${teleGroup}/integration/web-secret`)).json() as WebSecret;
    await refused(webUrl(fields(), tele.secret));
    await refused(webUrl(fields({ groupId: teleGroup }), secret));
    // A group with no secret at all.
    await refused(webUrl(fields({ groupId: 'no-such-group' }), secret));
    // Within the allowed skew, a timestamp a little ahead is fine.
    expect((await t.call('GET', webUrl(fields({ timestamp: String(nowS() + 9 * 60) })))).statusCode).toBe(200);
    // Missing fields are a plain validation error.
    expect((await t.call('GET', `web-report?groupId=${renhe}`)).statusCode).toBe(400);
  });

  it('stops working when the secret is rotated', async () => {
    const url = webUrl(fields());
    expect((await t.call('GET', url)).statusCode).toBe(200);
    await t.as(tok.groupadmin!).post(`groups/${renhe}/integration/web-secret`);
    expect((await t.call('GET', url)).statusCode).toBe(403);
  });
});
