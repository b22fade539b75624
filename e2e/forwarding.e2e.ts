import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStorescp } from '../packages/server/src/dicom/testdata/qrscu.js';
import { api, apiLogin, browserPerFile, screenshot, signIn, step, waitForZhangWeiCts } from './support.js';

/**
 * Issue 28, sending studies to other DICOM nodes in the browser: the demo organization admin
 * (周管理, admin of 放射科) gives a device the host and port of a DCMTK storescp this file starts and
 * adds a forwarding rule to it in procedure management; the approving doctor (王主任, who holds
 * study_package; the admin holds no exam action) sends 张伟's CT from the study list's "发送到…" and
 * sees the send reach 完成; storescp holds every image; the admin sees it in 最近发送.
 * The rule and the device are removed afterwards (the demo server is shared by later specs).
 */
let page: Page;
const pages = browserPerFile((current) => ({ page } = current));

const suffix = Date.now().toString(36).toUpperCase().slice(-6);
const deviceName = `转发测试工作站${suffix}`;
const aeTitle = `FWD${suffix}`;
const ruleName = `CT 转发${suffix}`;

let storescp: Awaited<ReturnType<typeof startStorescp>>;
let storeDir = '';
let exam: { id: string; bucketId: string };
let adminToken = '';
/** the approving doctor's: it reads the exam's sends (exam_get) */
let seniorToken = '';

/** antd puts a space between two CJK characters of a button (保 存). */
function button(scope: Page | Locator, label: string): Locator {
  return scope.getByRole('button', { name: new RegExp(`(^|\\s)${[...label].join('\\s?')}$`) });
}

async function toast(p: Page, text: string): Promise<void> {
  await p.locator('.ant-message').getByText(text).waitFor();
}

/** Screens are pictured without the toasts of earlier steps lying over them. */
async function shot(p: Page, name: string): Promise<void> {
  await p.waitForFunction(() => !document.querySelector('.ant-message-notice'), undefined, { timeout: 10_000 });
  await screenshot(p, name);
}

beforeAll(async () => {
  storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-e2e-storescp-'));
  storescp = await startStorescp(storeDir, aeTitle);
  const cts = await waitForZhangWeiCts();
  adminToken = (await apiLogin('groupadmin')).accessToken;
  const newest = [...cts].sort((a, b) => b.studyDate.localeCompare(a.studyDate))[0]!;
  // its organization, as the approving doctor who sends it sees it
  seniorToken = (await apiLogin('senior')).accessToken;
  const detail = await api<{ id: string; bucketId: string }>(`/yyp/api/v1/exams/${newest.id}/detail`, seniorToken);
  expect(detail.status).toBe(200);
  exam = { id: detail.body.id, bucketId: detail.body.bucketId };
});

afterAll(async () => {
  storescp?.stop();
  if (exam) {
    const base = `/yyp/api/v1/buckets/${exam.bucketId}`;
    const rules = await api<{ id: string; name: string }[]>(`${base}/forwarding-rules`, adminToken);
    for (const rule of rules.body.filter((r) => r.name === ruleName)) {
      await api(`${base}/forwarding-rules/${rule.id}`, adminToken, { method: 'DELETE' });
    }
    const devices = await api<{ id: string; aeTitle: string }[]>(`${base}/devices`, adminToken);
    for (const device of devices.body.filter((d) => d.aeTitle === aeTitle)) {
      await api(`${base}/devices/${device.id}`, adminToken, { method: 'DELETE' });
    }
  }
  if (storeDir) fs.rmSync(storeDir, { recursive: true, force: true });
});

/** 放射科's procedure management, reached as an admin does: 我的集团 › 仁和医院 › 机构 › 放射科. */
async function openProcedureManagement(p: Page): Promise<void> {
  await p.getByRole('link', { name: '我的集团' }).click();
  await p.getByRole('link', { name: '仁和医院' }).first().click();
  await p.getByRole('tab', { name: '机构' }).click();
  await p.getByRole('link', { name: '放射科' }).click();
  await p.getByRole('tab', { name: '检查项目管理' }).click();
}

describe('sending studies to a DICOM node', () => {
  it('the admin adds a device and a forwarding rule, a doctor sends a CT by hand and storescp receives it', async () => {
    step('the admin opens procedure management');
    await signIn(page, 'groupadmin');
    await openProcedureManagement(page);

    step('a device with the host and port of storescp');
    await page.getByRole('tab', { name: '设备', exact: true }).click();
    await button(page, '新增设备').click();
    const deviceModal = page.getByRole('dialog', { name: '新增设备' });
    await deviceModal.getByLabel('名称', { exact: true }).fill(deviceName);
    await deviceModal.getByLabel('AE 名称').fill(aeTitle);
    await deviceModal.getByLabel('主机地址').fill('127.0.0.1');
    await deviceModal.getByLabel('端口').fill(String(storescp.port));
    await button(deviceModal, '保存').click();
    await toast(page, `设备 ${deviceName} 已保存。`);

    step('a forwarding rule of CT studies to it');
    await page.getByRole('tab', { name: '转发规则' }).click();
    await button(page, '新增转发规则').click();
    const ruleModal = page.getByRole('dialog', { name: '新增转发规则' });
    await ruleModal.getByLabel('名称', { exact: true }).fill(ruleName);
    await ruleModal.getByLabel('目标设备').click();
    await page.getByTitle(`${deviceName} · ${aeTitle} (127.0.0.1:${storescp.port})`).click();
    await ruleModal.getByLabel('检查类型').fill('CT');
    // close the suggestions by clicking the title (Escape would close the dialog)
    await ruleModal.locator('.ant-modal-title').click();
    await shot(page, 'forwarding-rule-editor');
    await button(ruleModal, '保存').click();
    await toast(page, `转发规则 ${ruleName} 已保存。`);
    const ruleRow = page.getByRole('row').filter({ hasText: ruleName });
    await ruleRow.getByText(aeTitle, { exact: true }).waitFor();
    await ruleRow.getByText(`· ${deviceName}`).waitFor();
    await ruleRow.getByText('CT', { exact: true }).waitFor();
    expect(await ruleRow.getByText('任意', { exact: true }).count()).toBe(2);
    expect(await ruleRow.getByRole('switch').getAttribute('aria-checked')).toBe('true');
    await shot(page, 'forwarding-rules');

    step('the approving doctor: "发送到…" on 张伟’s CT in the study list');
    await pages.reopen();
    await signIn(page, 'senior');
    await page.getByRole('tab', { name: '全部检查' }).click();
    await page.getByLabel('姓名、拼音首字母、患者编号或检查号（/）').fill('张伟');
    await page.getByTestId(`more-${exam.id}`).click();
    await page.getByRole('menuitem', { name: '发送到…' }).click();
    const dialog = page.getByRole('dialog', { name: '将 张伟 发送到 DICOM 节点' });
    await dialog.getByText('该检查还没有发送过。').waitFor();
    await dialog.getByLabel('目标设备').click();
    await page.getByTitle(`${deviceName} · ${aeTitle} (127.0.0.1:${storescp.port})`).click();
    await button(dialog, '发送').click();
    await toast(page, '已排队：检查将在后台发送。');

    step('the send reaches 完成');
    await dialog.locator('.ant-tag').getByText('完成', { exact: true }).waitFor({ timeout: 60_000 });
    const sends = await api<{ status: string; total: number; sent: number; failed: number; destinationAe: string }[]>(
      `/yyp/api/v1/exams/${exam.id}/dicom-sends`,
      seniorToken,
    );
    const send = sends.body[0]!;
    expect(send).toMatchObject({ status: 'done', failed: 0, destinationAe: aeTitle });
    expect(send.total).toBeGreaterThan(0);
    expect(send.sent).toBe(send.total);
    await dialog.getByText(`${send.total} / ${send.total} 幅`).waitFor();
    await dialog.getByText('整个检查 · 手动').waitFor();
    await shot(page, 'forwarding-send-dialog');
    // storescp wrote one file per image it received
    await expect.poll(() => storescp.files().length).toBe(send.total);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    step('the admin sees the send in 最近发送 of the organization');
    await pages.reopen();
    await signIn(page, 'groupadmin');
    await openProcedureManagement(page);
    await page.getByRole('tab', { name: '转发规则' }).click();
    const sendRow = page.getByRole('row').filter({ hasText: aeTitle }).filter({ hasText: '手动' });
    await sendRow.locator('.ant-tag').getByText('完成', { exact: true }).waitFor();
    await sendRow.getByText(`${send.total} / ${send.total} 幅`).waitFor();
    await shot(page, 'forwarding-recent-sends');
  });
});
