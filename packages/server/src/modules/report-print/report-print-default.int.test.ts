import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PrintTemplateAnswer, PrintView } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAccount } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { printFixture } from './report-print.fixture.js';

/**
 * Printing works out of the box (issue 20 item 6): an organization built here through the API, as
 * a new hospital would (not the demo seed), prints its first report, a printing sheet and the PDF
 * on the template it starts with, named after it; its admin edits that template, others may not.
 */
let t: TestApp;
const tok: Record<string, string> = {};
let orgId = '';
let f: ReturnType<typeof printFixture>;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-print-default-'));

/** The text of a PDF as a reader sees it (poppler-utils pdftotext). */
function pdfText(pdf: Buffer, name: string): string {
  const file = path.join(work, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/** A group member created by the founder, put in the organization with a role, logged in. */
async function member(username: string, name: string, roleId: string): Promise<string> {
  const founder = t.as(tok.founder!);
  const created = await founder.post(`groups/${orgGroup}/members/create-account`, {
    username,
    name,
    password: 'Init#2026',
    accessLevel: 0,
  });
  expect(created.statusCode, created.body).toBe(201);
  const accountId = (created.json() as { accountId: string }).accountId;
  expect(
    (await founder.post(`buckets/${orgId}/members`, { accountIds: [accountId], accessLevel: 'member' })).statusCode,
  ).toBe(200);
  expect((await founder.put(`roles/${roleId}/mappings`, { accountIds: [accountId] })).statusCode).toBe(200);
  const set = await t.call('POST', 'accounts/update-password', {
    body: { username, oldPwd: 'Init#2026', newPwd: 'Mine#2026' },
  });
  expect(set.statusCode, set.body).toBe(200);
  return (set.json() as { accessToken: string }).accessToken;
}
let orgGroup = '';

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const admin = (await makeAccount(t, { platformAdmin: true })).token;
  await t.call('PUT', 'domain', { token: admin, body: { allowRegistration: true } });
  const reg = await t.call('POST', 'accounts', {
    body: { username: 'xyfounder', password: 'kestrel481', name: '卓玛' },
  });
  expect(reg.statusCode, reg.body).toBeLessThan(300);
  tok.founder = (reg.json() as { accessToken: string }).accessToken;
  const founder = t.as(tok.founder);
  const group = await founder.post('groups', { displayName: '雪域人民医院' });
  expect(group.statusCode, group.body).toBe(201);
  orgGroup = (group.json() as { id: string }).id;
  const org = await founder.post(`groups/${orgGroup}/organizations`, { name: '影像科', code: 'XY-IMG' });
  expect(org.statusCode, org.body).toBe(201);
  orgId = (org.json() as { id: string }).id;
  const role = await founder.post(`buckets/${orgId}/roles`, {
    name: '报告医生',
    actions: ['exam_get', 'report_upsert', 'report_approval', 'report_print'],
  });
  expect(role.statusCode, role.body).toBe(201);
  tok.doctor = await member('xydoc', '次仁医生', (role.json() as { id: string }).id);
  f = printFixture(t, tok);
});
afterAll(async () => {
  await t.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('a new organization prints out of the box', () => {
  it('prints the first report, a printing sheet and the PDF on the default template, named after it', async () => {
    const doctor = f.as('doctor');
    const first = await f.newExam(orgId, { studyDate: '20260301' });
    const second = await f.newExam(orgId, { studyDate: '20260301' });
    for (const id of [first, second]) {
      await f.ok('doctor', `reports/${id}/submit`, { version: 0, content: f.content('双肺纹理清晰。', '未见异常') });
      await f.ok('doctor', `reports/${id}/approve`, {});
    }

    const answer = await doctor.get(`buckets/${orgId}/print-template`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect((answer.json() as PrintTemplateAnswer).template).toMatchObject({
      hospitalName: '雪域人民医院 影像科',
      title: '',
      isDefault: true,
      updatedBy: null,
    });

    const view = await doctor.get(`reports/${first}/print-view`);
    expect(view.statusCode, view.body).toBe(200);
    expect((view.json() as PrintView).template).toMatchObject({ hospitalName: '雪域人民医院 影像科', title: '' });
    expect((view.json() as PrintView).reports[0]).toMatchObject({ approved: true, conclusion: '未见异常' });

    const sheets = await doctor.post('reports/print-sheets', { examIds: [first, second] });
    expect(sheets.statusCode, sheets.body).toBe(200);
    expect((sheets.json() as PrintView).template.hospitalName).toBe('雪域人民医院 影像科');
    expect((sheets.json() as PrintView).reports).toHaveLength(2);

    const pdf = await doctor.get(`reports/${first}/pdf`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = pdfText(pdf.rawPayload, 'default');
    expect(text).toContain('雪域人民医院 影像科');
    expect(text).toContain('未见异常');
  });

  it('is edited by the organization admin only, and then prints as edited everywhere', async () => {
    const edited = { hospitalName: '雪域人民医院', title: '医学影像诊断报告', footerHtml: '地址：拉萨北京中路1号' };
    // The doctor prints but does not set print templates (spec 000 §6).
    const refused = await f.as('doctor').put(`buckets/${orgId}/print-template`, edited);
    expect(refused.statusCode).toBe(403);
    const saved = await t.as(tok.founder!).put(`buckets/${orgId}/print-template`, edited);
    expect(saved.statusCode, saved.body).toBe(200);
    expect((saved.json() as PrintTemplateAnswer).template).toMatchObject({
      hospitalName: '雪域人民医院',
      title: '医学影像诊断报告',
      footerText: '地址：拉萨北京中路1号',
      isDefault: false,
      updatedBy: { name: '卓玛' },
    });

    const id = await f.newExam(orgId);
    await f.ok('doctor', `reports/${id}/submit`, { version: 0, content: f.content('所见', '结论') });
    await f.ok('doctor', `reports/${id}/approve`, {});
    const view = (await f.as('doctor').get(`reports/${id}/print-view`)).json() as PrintView;
    expect(view.template).toMatchObject({
      hospitalName: '雪域人民医院',
      title: '医学影像诊断报告',
      footerText: '地址：拉萨北京中路1号',
    });
    const pdf = await f.as('doctor').get(`reports/${id}/pdf`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    const text = pdfText(pdf.rawPayload, 'edited');
    expect(text).toContain('医学影像诊断报告');
    expect(text).toContain('拉萨北京中路1号');
    expect(text).not.toContain('影像科');
  });
});
