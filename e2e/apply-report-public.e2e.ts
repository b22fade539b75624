import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  apiLogin,
  browserPerFile,
  screenshot,
  submitLogin,
  type BrowserPage,
  type ListedExam,
} from './support.js';

const V1 = '/yyp/api/v1';

/**
 * Li Ming's demo MR (print.e2e writes its report; nothing here changes the exam): the order this
 * file makes on it is cancelled and deleted at the end, so the exam is as other files find it.
 */
async function liMingMr(token: string): Promise<ListedExam> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const res = await api<{ exams: ListedExam[] }>(`${V1}/exams/page-query`, token, {
      method: 'POST',
      body: JSON.stringify({ filters: [], limit: 50 }),
    });
    const exam = res.body.exams.find((e) => e.patientName.startsWith('Li') && e.modality === 'MR');
    if (exam) return exam;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('the demo study of Li Ming did not appear within 90 s');
}

/**
 * /exams/{examId}/apply-report/{applicationId} is a public route (spec 000 §2): opened with nobody
 * signed in it shows no PHI, only a way to sign in or to use the payment link; signing in from it
 * comes back to the order's payment page. The order is the hospital senior's MR expert read,
 * applied through the API.
 */
describe('the public apply-report page', () => {
  let t = {} as BrowserPage;
  browserPerFile((current) => (t = current));
  let token = '';
  let exam: ListedExam;
  let orderId = '';

  beforeAll(async () => {
    token = (await apiLogin('senior')).accessToken;
    exam = await liMingMr(token);
    const applied = await api<{ id: string }>(`${V1}/request/apply`, token, {
      method: 'POST',
      body: JSON.stringify({
        examId: exam.id,
        productId: 'demo-product-1-MR', // the demo's MR expert read (seed/demo-billing.ts)
        reason: '公开支付页测试',
        applicantMobile: '13800000000',
      }),
    });
    expect(applied.status, JSON.stringify(applied.body)).toBe(201);
    orderId = applied.body.id;
  });
  afterAll(async () => {
    if (!orderId) return;
    const cancelled = await api(`${V1}/request/${orderId}/cancel-remote`, token, {
      method: 'POST',
      body: JSON.stringify({ reason: 'e2e' }),
    });
    const deleted = await api(`${V1}/request/${orderId}/delete`, token, { method: 'DELETE' });
    expect([cancelled.status, deleted.status]).toEqual([200, 204]);
  });

  it('shows a message without PHI to nobody signed in, and signing in from it comes back to the order', async () => {
    const page = `/exams/${exam.id}/apply-report/${orderId}`;
    await t.page.goto(page);
    const message = t.page.getByText('请登录后支付此订单，或打开您收到的支付链接。');
    await message.waitFor();
    const text = await t.page.locator('body').innerText();
    expect(text).not.toContain('Ming');
    expect(text).not.toContain('MR 专家阅片');
    await screenshot(t.page, 'apply-report-public-signed-out');

    await t.page.getByRole('button', { name: /登\s*录/ }).click();
    await t.page.waitForURL('**/login?redirect=**');
    await submitLogin(t.page, 'senior', 'Yyp@2026');
    await t.page.waitForURL(`**${page}`);
    // Signed in: the requester's payment page, with the order and its patient.
    await t.page.getByText('MR 专家阅片').waitFor();
    await t.page.getByTestId('payment-qr').waitFor();
    expect(await t.page.locator('body').innerText()).toContain('Ming');
    await screenshot(t.page, 'apply-report-public-signed-in');
  });
});
