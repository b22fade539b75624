import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStudy, writeStudy } from '../packages/server/src/dicom/testdata/generate.js';
import { apiLogin, chooseLanguage, loginViaUi, screenshot, api, browserPerFile } from './support.js';

/**
 * The upload wizard in the browser: a technician sends a folder of generated DICOM files (and a
 * note that is no DICOM file) to 放射科, through a connection that drops for a moment; an outside
 * uploader sends one file with the organization's public link. Files go over tus to the real server.
 */

let context: BrowserContext;
let page: Page;
browserPerFile((c) => ({ context, page } = c));
let workDir: string;

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-e2e-upload-'));
});

afterAll(async () => {
  fs.rmSync(workDir, { recursive: true, force: true });
});

/** The id of 放射科 (code RH-RAD) in the demo group. */
async function radiologyId(): Promise<string> {
  const admin = await apiLogin('groupadmin');
  const orgs = await api<{ id: string; code: string }[]>(
    '/yyp/api/v1/groups/demo-renhe/organizations',
    admin.accessToken,
  );
  const radiology = orgs.body.find((o) => o.code === 'RH-RAD');
  if (!radiology) {
    throw new Error('放射科 (RH-RAD) is missing from the demo group');
  }
  return radiology.id;
}

describe('upload wizard', () => {
  it('sends a folder to 放射科 through a dropped connection and lists the file that is no DICOM', async () => {
    const patientId = `E2E-UP-${Date.now().toString(36)}`;
    const study = generateStudy({
      modality: 'CT',
      series: 2,
      instancesPerSeries: 3,
      rows: 256,
      columns: 256,
      patientId,
      patientName: '王^上传',
      charset: 'GB18030',
    });
    const folder = path.join(workDir, 'CT-study');
    await writeStudy(folder, study);
    fs.writeFileSync(path.join(folder, 'notes.txt'), 'clinical notes, not an image');

    // The entry on the study list is there for a technician, who may upload.
    await loginViaUi(page, 'tech');
    await page.getByRole('button', { name: '上传检查' }).waitFor();
    await screenshot(page, 'upload-entry-studies');
    await page.getByRole('button', { name: '上传检查' }).click();
    await page.waitForURL('**/upload');

    // Step 1: the folder, with count and total size.
    await page.getByTestId('upload-folder-input').setInputFiles(folder);
    await page.getByText('文件数：7').waitFor();
    await page.getByRole('cell', { name: 'CT-study/notes.txt', exact: true }).waitFor();
    await screenshot(page, 'upload-step1-files');
    await page.getByRole('button', { name: '下一步' }).click();

    // Step 2: tech uploads into 放射科 only, so it is chosen already.
    await page.locator('.ant-select-content').getByText('放射科').waitFor();
    await screenshot(page, 'upload-step2-organization');

    // Step 3 on a slow line that drops for a moment: the files fail, then continue when it is back.
    const cdp = await context.newCDPSession(page);
    const line = (offline: boolean) =>
      cdp.send('Network.emulateNetworkConditions', {
        offline,
        latency: 20,
        downloadThroughput: 2_000_000,
        uploadThroughput: 150_000,
      });
    await line(false);
    await page.getByRole('button', { name: '开始上传' }).click();
    await page.getByText('正在上传到放射科').waitFor();
    await page.locator('.yyp-upload-file-progress').first().waitFor();
    await screenshot(page, 'upload-step3-progress');
    await line(true);
    await page.getByText('网络连接已断开。连接恢复后，上传会自动继续。').waitFor();
    await page.getByText('网络连接中断').first().waitFor();
    await screenshot(page, 'upload-step3-offline');
    await line(false);

    // Step 4: the summary, once every file arrived.
    await page.getByText('上传完成', { exact: true }).waitFor({ timeout: 60_000 });
    const stored = page.locator('.ant-statistic').filter({ hasText: '已保存影像' });
    expect(await stored.locator('.ant-statistic-content-value').innerText()).toBe('6');
    const skipped = page.getByRole('row').filter({ hasText: 'notes.txt' });
    await skipped.getByText('不是 DICOM 文件').waitFor();
    await screenshot(page, 'upload-step4-summary');

    // The exam is in 放射科: the doctor finds it, and the 放射科 download link names it.
    const doctor = await apiLogin('doctor');
    const found = await api<Record<string, { Value?: string[] }>[]>(
      `/dicom-web/studies?PatientID=${patientId}`,
      doctor.accessToken,
    );
    expect(found.status).toBe(200);
    expect(found.body.map((s) => s['0020000D']?.Value?.[0])).toEqual([study.studyInstanceUid]);
    expect(found.body[0]?.['00201208']?.Value?.[0]).toBe(6);
    const radId = await radiologyId();
    const inRadiology = await api(
      `/yyp/api/v1/studies/download-token?bucketId=${radId}&storeUid=${study.studyInstanceUid}`,
      doctor.accessToken,
    );
    expect(inRadiology.status).toBe(200);

    // "Go to the study list".
    await page.getByRole('button', { name: '前往检查列表' }).click();
    await page.waitForURL('**/studies');
  }, 120_000);
});

describe('public upload link', () => {
  it('lets an outside uploader send a file to the organization of the link, without an account', async () => {
    const radId = await radiologyId();
    const admin = await apiLogin('groupadmin');
    const issued = await api<{ token: string }>(`/yyp/api/v1/buckets/${radId}/upload/token`, admin.accessToken, {
      method: 'POST',
    });
    expect(issued.status).toBe(200);

    const study = generateStudy({ modality: 'DX', rows: 64, columns: 64, patientId: `E2E-LINK-${Date.now()}` });
    const [file] = await writeStudy(path.join(workDir, 'link'), study);

    await page.goto(`/upload?token=${encodeURIComponent(issued.body.token)}`);
    await page.getByRole('heading', { name: '上传检查到放射科' }).waitFor();
    expect(await page.getByRole('navigation').count()).toBe(0);
    expect(await page.locator('a[href]').count()).toBe(0);
    await screenshot(page, 'upload-link-step1');

    await page.getByTestId('upload-files-input').setInputFiles(file!);
    await page.getByText('文件数：1').waitFor();
    await page.getByRole('button', { name: '开始上传' }).click();
    await page.getByText('上传完成', { exact: true }).waitFor();
    const stored = page.locator('.ant-statistic').filter({ hasText: '已保存影像' });
    expect(await stored.locator('.ant-statistic-content-value').innerText()).toBe('1');
    await screenshot(page, 'upload-link-complete');

    // The same page in Tibetan.
    await chooseLanguage(page, '语言', 'བོད་ཡིག');
    await page.getByText('ཡར་འཇུག་ལེགས་གྲུབ།').waitFor();
    await screenshot(page, 'upload-link-complete-tib');
    await page.getByRole('button', { name: 'ད་དུང་ཡར་འཇུག' }).click();
    await page.getByText('ཡིག་ཆའམ་ཡིག་སྣོད་འདིར་འདྲུད་ནས་འཇོག').waitFor();
    await screenshot(page, 'upload-link-step1-tib');
  });

  it('says clearly that a wrong link is not valid', async () => {
    await page.goto('/upload?token=bogus');
    await page.getByText('此上传链接无效').waitFor();
    await page.getByText('链接有误，或机构已撤销该链接。请向机构索取新的上传链接。').waitFor();
    await screenshot(page, 'upload-link-invalid');
  });
});
