import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStudy, writeStudy } from '../packages/server/src/dicom/testdata/generate.js';
import { api, apiLogin, browserPerFile, screenshot, signIn, todayDicom } from './support.js';

/**
 * Issue 20 item 8: a technician corrects the patient and accession number in the upload wizard's
 * step 2; the stored exam, QIDO-RS and the metadata the viewer reads answer the corrected values,
 * while the files keep what they were sent with.
 */

let page: Page;
browserPerFile((c) => ({ page } = c));
let workDir: string;

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-e2e-upload-correct-'));
});

afterAll(async () => {
  fs.rmSync(workDir, { recursive: true, force: true });
});

type Attrs = Record<string, { Value?: unknown[] }>;

describe('upload wizard step 2: corrections', () => {
  it('writes the corrected patient and accession number on the exam the upload stores', async () => {
    const stamp = Date.now().toString(36);
    const wrongId = `E2E-WRONG-${stamp}`;
    const rightId = `E2E-RIGHT-${stamp}`;
    const study = generateStudy({
      modality: 'CT',
      series: 1,
      instancesPerSeries: 2,
      rows: 64,
      columns: 64,
      patientId: wrongId,
      patientName: 'WRONG^NAME',
      patientSex: 'M',
      patientBirthDate: '19700101',
      accessionNumber: `ACC-W-${stamp}`,
      studyDate: todayDicom(),
    });
    const folder = path.join(workDir, 'CT');
    await writeStudy(folder, study);

    await signIn(page, 'tech', '/upload');
    await page.getByTestId('upload-folder-input').setInputFiles(folder);
    await page.getByText('文件数：2').waitFor();
    await page.getByRole('button', { name: '下一步' }).click();

    // Step 2: the organization, and the corrections; empty fields keep what the files say.
    await page.getByText('更正检查信息').waitFor();
    await page.getByLabel('患者姓名').fill('张^伟');
    await page.getByLabel('患者 ID').fill(rightId);
    await page.getByLabel('性别').click();
    await page.locator('.ant-select-item-option[title="女"]').click();
    await page.getByLabel('出生日期').click();
    await page.getByLabel('出生日期').fill('1980-02-02');
    await page.getByLabel('出生日期').press('Enter');
    await page.getByLabel('检查号').fill(`ACC-R-${stamp}`);
    await page.getByText('更正检查信息').click(); // closes any open picker before the picture
    await screenshot(page, 'upload-correct-step2');

    await page.getByRole('button', { name: '开始上传' }).click();
    await page.getByText('上传完成', { exact: true }).waitFor({ timeout: 60_000 });
    await screenshot(page, 'upload-correct-complete');

    // QIDO-RS finds the study by the corrected ID only, with the corrected values.
    const senior = await apiLogin('senior');
    const wrong = await api<Attrs[] | undefined>(`/dicom-web/studies?PatientID=${wrongId}`, senior.accessToken);
    expect(wrong.body ?? []).toEqual([]);
    const found = await api<Attrs[]>(`/dicom-web/studies?PatientID=${rightId}`, senior.accessToken);
    expect(found.status).toBe(200);
    expect(found.body).toHaveLength(1);
    const [answer] = found.body;
    expect(answer?.['0020000D']?.Value).toEqual([study.studyInstanceUid]);
    expect(answer?.['00100010']?.Value).toEqual([{ Alphabetic: '张^伟' }]);
    expect(answer?.['00100040']?.Value).toEqual(['F']);
    expect(answer?.['00100030']?.Value).toEqual(['19800202']);
    expect(answer?.['00080050']?.Value).toEqual([`ACC-R-${stamp}`]);

    // The metadata the viewer reads answers the corrections too.
    const metadata = await api<Attrs[]>(`/dicom-web/studies/${study.studyInstanceUid}/metadata`, senior.accessToken);
    expect(metadata.status).toBe(200);
    for (const m of metadata.body) {
      expect(m['00100020']?.Value).toEqual([rightId]);
      expect(m['00100010']?.Value).toEqual([{ Alphabetic: '张^伟' }]);
    }
  }, 120_000);
});
