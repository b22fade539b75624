import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  api,
  apiLogin,
  browserPerFile,
  type DeskItem,
  deskItem,
  examIdsOfPatient,
  loginViaUi,
  screenshot,
  settle,
  stowScheduledStudy,
  todayDicom,
} from './support.js';

/**
 * Issue 22 in the browser: the demo registrar registers a walk-in at the keyboard for a chest CT
 * and records the arrival; the modality stores the study with the scheduled accession number and
 * Study Instance UID; the scheduled exam is Performed and the doctor sees the exam on /studies.
 */
let page: Page;

const pages = browserPerFile((current) => ({ page } = current));

describe('the front desk', () => {
  it('registers a walk-in for a chest CT at the keyboard; the stored study performs it; the doctor sees it', async () => {
    const name = `登记测试${Date.now() % 100000}`;
    await loginViaUi(page, 'registrar');
    await page.getByRole('navigation').getByRole('link', { name: '登记', exact: true }).click();
    await page.waitForURL('**/registry');
    await page.getByRole('button', { name: '登记（F2）' }).waitFor();
    await page.keyboard.press('F2');
    const nameField = page.getByLabel('姓名', { exact: true });
    await nameField.waitFor();
    await page.keyboard.type(name);
    // The procedure: the first exam row's select, the demo radiology's chest CT.
    // Typed into the select's search and taken with Enter, as a registrar does at the keyboard.
    await page.getByLabel('检查项目').first().focus();
    await page.keyboard.type('胸部CT平扫');
    await page.locator('.ant-select-item-option-active[title^="胸部CT平扫"]').waitFor();
    // Enter once the list has opened (its motion ended), as a person sees it before choosing.
    await settle(page);
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('.ant-select-content-has-value[title^="胸部CT平扫"]').count(), { timeout: 5_000 })
      .toBeGreaterThan(0);
    await screenshot(page, 'registry-form');
    await page.getByRole('button', { name: '登记并到检' }).click();
    const row = page.getByRole('row').filter({ hasText: name });
    await row.waitFor();
    await expect(row.getByText('已到检').count()).resolves.toBe(1);
    await screenshot(page, 'registry-list');

    // The modality stores the study the worklist gave it (its accession number and Study Instance UID).
    const registrar = await apiLogin('registrar');
    const buckets = await api<{ id: string }[]>('/yyp/api/v1/registry-buckets', registrar.accessToken);
    const bucketId = buckets.body[0]!.id;
    const scheduled = (await deskItem(registrar.accessToken, bucketId, name))!;
    expect(scheduled).toMatchObject({ status: 'Arrived', patient: { name } });
    await stowScheduledStudy(bucketId, scheduled, todayDicom());
    let performed: DeskItem | undefined;
    for (let i = 0; i < 50 && !performed?.examId; i++) {
      performed = await deskItem(registrar.accessToken, bucketId, scheduled.accessionNumber);
      if (!performed?.examId) await new Promise((r) => setTimeout(r, 100));
    }
    expect(performed).toMatchObject({ status: 'Performed' });
    expect(performed!.examId).toBeTruthy();

    // The doctor sees the exam on /studies.
    const doctor = await apiLogin('doctor');
    expect(await examIdsOfPatient(doctor.accessToken, scheduled.patient.patientId)).toEqual([performed!.examId]);
    await pages.reopen();
    await loginViaUi(page, 'doctor');
    // The shared server holds many of today's exams, and the CT assign rules may give this one to
    // another radiologist: the doctor looks the patient up by name among all exams.
    await page.getByRole('tab', { name: '全部检查' }).click();
    await page.getByLabel('姓名、拼音首字母、患者编号或检查号（/）').fill(name);
    await page.getByRole('row').filter({ hasText: name }).first().waitFor();
    await screenshot(page, 'registry-studies');
  });
});
