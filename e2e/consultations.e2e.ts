import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  apiLogin,
  browserPerFile,
  loginViaUi,
  screenshot,
  settle,
  signIn,
  step,
  type BrowserPage,
  type ListedExam,
  waitForZhangWeiCts,
} from './support.js';
import { cancelOpenConsultations } from './consultation-support.js';

const V1 = '/yyp/api/v1';
const REASON = '右肺下叶结节性质待定，请专家会诊';

interface Detail {
  id: string;
  status: number;
  version: number;
  title: string;
  exams: { examId: string; openExamId: string | null }[];
  links: { id: string; linkedId: string }[];
}

/**
 * Issue 25's story without the video (consultation-video.e2e.ts) and the shared viewing
 * (consultation-follow.e2e.ts): the demo hospital's doctor requests a consultation on 张伟's CT from
 * its report (the exam is bound) and attaches a PDF; the demo expert (孙专家, XH-TELE) is told by the
 * poll's toast, accepts, writes the result and completes it; the doctor rates it once and prints the
 * conclusion; a later consultation links it as history and opens it through the link.
 */
describe('consultations: request, accept, conclude, rate, print and link as history', () => {
  let t = {} as BrowserPage;
  browserPerFile((current) => (t = current), { pdfViewer: true });
  let ct: ListedExam;
  let consultationId = '';
  let laterId = '';

  beforeAll(async () => {
    [, ct] = (await waitForZhangWeiCts()) as [ListedExam, ListedExam];
  }, 120_000);

  // Nothing of this file stays open: a consultation left open keeps its exam shared with XH-TELE.
  afterAll(() => cancelOpenConsultations([laterId, consultationId]));

  const statusTag = (page: Page, label: string) => page.locator('.ant-tag').filter({ hasText: label }).first();

  it('the doctor requests it from the CT report, the exam bound, and attaches a pathology PDF', async () => {
    step('open the report of 张伟 CT and ask for a consultation');
    await signIn(t.page, 'doctor', `/studies/${ct.id}/reports/${ct.id}`);
    await t.page.getByTestId('request-consultation').click();
    await t.page.waitForURL('**/consultations/add?**');
    const form = t.page.locator('form');
    await expect.poll(() => form.getByLabel('患者姓名').inputValue()).toBe('张伟');

    step('fill the request');
    await form.getByLabel('标题', { exact: true }).fill('疑难病例会诊：张伟 胸部 CT');
    const start = new Date(Date.now() + 3_600_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    const when = `${start.getFullYear()}-${pad(start.getMonth() + 1)}-${pad(start.getDate())} ${pad(start.getHours())}:${pad(start.getMinutes())}`;
    const picker = form.getByLabel('会诊开始时间');
    await picker.click();
    await picker.fill(when);
    await picker.press('Enter');
    await form.getByLabel('会诊原因').fill(REASON);
    await form.getByLabel('会诊专家').click();
    await t.page.locator('.ant-select-dropdown:visible').getByTitle('孙专家').click();
    await t.page.keyboard.press('Escape');
    await screenshot(t.page, 'consultation-add');
    await form.getByRole('button', { name: '提交申请' }).click();
    await t.page.waitForURL(/\/consultations\/(?!add)[^/?]+$/);
    consultationId = decodeURIComponent(t.page.url().split('/').pop()!);
    await statusTag(t.page, '待会诊').waitFor();

    step('the CT is bound; add a case document and upload its PDF');
    const doctor = (await apiLogin('doctor')).accessToken;
    const detail = await api<Detail>(`${V1}/consultations/${consultationId}`, doctor);
    expect(detail.body.exams.map((e) => e.examId)).toEqual([ct.id]);
    await t.page.getByRole('button', { name: '添加病例资料' }).click();
    const modal = t.page.getByRole('dialog', { name: '添加病例资料' });
    await modal.getByLabel('名称').fill('病理报告');
    await modal.getByLabel('类型').click();
    await t.page.locator('.ant-select-dropdown:visible').getByTitle('病理报告').click();
    await modal.getByRole('button', { name: /保\s*存/ }).click();
    await modal.waitFor({ state: 'hidden' });
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
    await t.page.locator('input[type=file]').first().setInputFiles({
      name: '病理报告.pdf',
      mimeType: 'application/pdf',
      buffer: pdf,
    });
    await t.page.getByText('病理报告.pdf').waitFor();
    await t.page.locator('.ant-tag').filter({ hasText: '已上传' }).first().waitFor({ timeout: 20_000 });
    await settle(t.page);
    await screenshot(t.page, 'consultation-detail-requested', { fullPage: true });
  }, 120_000);

  it('the expert is told by a toast, accepts it, writes the result and completes it', async () => {
    step('the expert signs in and sees the request toast');
    await loginViaUi(t.page, 'expert');
    const toast = t.page.locator('.ant-notification-notice').filter({ hasText: REASON }).first();
    await toast.waitFor({ timeout: 30_000 });
    expect(await toast.innerText()).toContain('张伟');
    await screenshot(t.page, 'consultation-toast');
    await toast.click();
    await t.page.waitForURL(`**/consultations/${encodeURIComponent(consultationId)}`);

    step('accept and schedule');
    await t.page.getByRole('button', { name: '接受并排期' }).click();
    const accept = t.page.getByRole('dialog', { name: '接受会诊' });
    await accept.getByRole('button', { name: '接受并排期' }).click();
    await accept.waitFor({ state: 'hidden' });
    await statusTag(t.page, '已排期').waitFor();

    step('write the result');
    const resultCard = t.page.locator('.ant-card').filter({ has: t.page.getByText('会诊结论', { exact: true }) });
    await resultCard.getByRole('button', { name: /编\s*辑/ }).click();
    await resultCard.locator('textarea').fill('考虑炎性结节可能性大，建议抗炎治疗后 1 个月复查胸部 CT。');
    await resultCard.getByRole('button', { name: /保\s*存/ }).click();
    await resultCard.getByText('考虑炎性结节可能性大').waitFor();

    step('complete it');
    await t.page.getByRole('button', { name: '完成会诊' }).click();
    await t.page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /确\s*定|OK/ })
      .click();
    await statusTag(t.page, '已完成').waitFor();
    await settle(t.page);
    await screenshot(t.page, 'consultation-detail-completed', { fullPage: true });
    // closing took the shared copy back from XH-TELE
    const expert = (await apiLogin('expert')).accessToken;
    const seen = await api<Detail>(`${V1}/consultations/${consultationId}`, expert);
    expect(seen.body.exams[0]!.openExamId).toBeNull();
  }, 120_000);

  it('the doctor rates it once, prints the conclusion, and links it as history from a later consultation', async () => {
    step('rate five stars');
    await signIn(t.page, 'doctor', `/consultations/${encodeURIComponent(consultationId)}`);
    const ratingCard = t.page.locator('.ant-card').filter({ has: t.page.getByText('评价', { exact: true }) });
    await ratingCard.locator('.ant-rate-star').nth(4).click();
    await ratingCard.locator('textarea').fill('结论明确，非常感谢。');
    await ratingCard.getByRole('button', { name: '提交评价' }).click();
    await ratingCard.getByText('结论明确，非常感谢。').waitFor();
    await expect.poll(() => ratingCard.getByRole('button', { name: '提交评价' }).count()).toBe(0);

    step('print the conclusion');
    const printed = t.page.waitForEvent('popup');
    await t.page.getByRole('button', { name: /打\s*印/ }).click();
    const popup = await printed;
    await popup.waitForURL(/^blob:/);
    await popup.close();
    const doctor = (await apiLogin('doctor')).accessToken;
    const pdf = await fetch(`${t.page.url().split('/consultations')[0]}${V1}/consultations/${consultationId}/print`, {
      headers: { authorization: `Bearer ${doctor}` },
    });
    expect(pdf.headers.get('content-type')).toContain('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    step('a later consultation links it as history');
    const first = await api<Detail & { sourceBucketId: string; targetBucketId: string }>(
      `${V1}/consultations/${consultationId}`,
      doctor,
    );
    const later = await api<Detail>(`${V1}/consultations`, doctor, {
      method: 'POST',
      body: JSON.stringify({
        sourceBucketId: first.body.sourceBucketId,
        targetBucketId: first.body.targetBucketId,
        title: '复查会诊：张伟',
        patient: { name: '张伟' },
        scheduledAt: new Date(Date.now() + 86_400_000).toISOString(),
        reason: '抗炎治疗后复查',
      }),
    });
    expect(later.status, JSON.stringify(later.body)).toBe(201);
    laterId = later.body.id;
    await t.page.goto(`/consultations/${encodeURIComponent(laterId)}`);
    await t.page.getByRole('button', { name: '关联历史会诊' }).click();
    const picker = t.page.getByRole('dialog', { name: '已完成的会诊' });
    await picker
      .locator('.ant-list-item')
      .filter({ hasText: '疑难病例会诊：张伟 胸部 CT' })
      .getByRole('button', { name: '关联历史会诊' })
      .click();
    await picker.waitFor({ state: 'hidden' });
    const linksCard = t.page.locator('.ant-card').filter({ has: t.page.getByText('历史会诊', { exact: true }) });
    await linksCard.getByText('疑难病例会诊：张伟 胸部 CT').waitFor();
    await settle(t.page);
    await screenshot(t.page, 'consultation-linked', { fullPage: true });
    await linksCard.getByRole('link', { name: '查看' }).first().click();
    await t.page.waitForURL(`**/consultations/${encodeURIComponent(laterId)}/related/**`);
    await t.page.getByText('考虑炎性结节可能性大').waitFor();
    expect(await t.page.getByRole('button', { name: '提交评价' }).count()).toBe(0);
    await screenshot(t.page, 'consultation-related');

    step('the list shows both');
    await t.page.goto('/consultations');
    await t.page.locator('.ant-table-row').filter({ hasText: '复查会诊：张伟' }).waitFor();
    await screenshot(t.page, 'consultation-list');
  }, 120_000);
});
