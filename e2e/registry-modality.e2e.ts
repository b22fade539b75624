import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DatasetBuilder } from '../packages/server/src/dicom/dataset-writer.js';
import { COMMAND } from '../packages/server/src/dicom/dimse-command.js';
import { MPPS_SOP_CLASS, MPPS_TAG } from '../packages/server/src/dicom/mpps.js';
import { dumpValue, findscuWorklist, worklistQueryFile } from '../packages/server/src/dicom/testdata/findscu.js';
import { mppsInProgress } from '../packages/server/src/dicom/testdata/mpps.js';
import { TestScu } from '../packages/server/src/dicom/testdata/scu.js';
import {
  api,
  apiLogin,
  browserPerFile,
  deskItem,
  examIdsOfPatient,
  loginViaUi,
  screenshot,
  settle,
  stowScheduledStudy,
} from './support.js';

/**
 * Issue 22's "Done when", as a new user meets it: the demo registrar registers an outpatient for a
 * chest CT tomorrow at the keyboard; the CT (findscu -W as DEMO_MODALITY) finds the patient on its
 * worklist for that day; its MPPS marks the exam in progress, then completed; the study stored with
 * the scheduled accession number lands on the exam, and the doctor sees it on /studies.
 */
let page: Page;
let dir: string;
const pages = browserPerFile((current) => ({ page } = current));

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-e2e-mwl-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The hospital's date (UTC+8) `days` from now, YYYY-MM-DD. */
const hospitalDay = (days: number) => new Date(Date.now() + 8 * 3600_000 + days * 86400_000).toISOString().slice(0, 10);

describe('the front desk hands the schedule to the CT', () => {
  it("registers tomorrow's CT at the keyboard; worklist, MPPS and the stored study take it to Performed; the doctor reads it", async () => {
    const name = `预约测试${Date.now() % 100000}`;
    const tomorrow = hospitalDay(1);
    await loginViaUi(page, 'registrar');
    await page.getByRole('navigation').getByRole('link', { name: '登记', exact: true }).click();
    await page.getByRole('button', { name: '登记（F2）' }).waitFor();
    await page.keyboard.press('F2');
    const form = page.getByRole('dialog');
    await form.getByLabel('姓名', { exact: true }).waitFor();
    await page.keyboard.type(name);
    await form.getByLabel('门诊号', { exact: true }).focus();
    await page.keyboard.type('MZ20261128');
    await form.getByLabel('检查项目', { exact: true }).first().focus();
    await page.keyboard.type('胸部CT平扫');
    await page.locator('.ant-select-item-option-active[title^="胸部CT平扫"]').waitFor();
    // Enter once the list has opened (its motion ended), as a person sees it before choosing.
    await settle(page);
    await page.keyboard.press('Enter');
    // The select takes the option a moment after Enter: moving on before would drop it.
    await expect
      .poll(() => form.locator('.ant-select-content-has-value[title^="胸部CT平扫"]').count(), { timeout: 5_000 })
      .toBeGreaterThan(0);
    await form.getByLabel('日期', { exact: true }).first().fill(tomorrow);
    await form.getByLabel('时间', { exact: true }).first().fill('09:30');
    await page.keyboard.press('Control+Enter');
    const row = page.getByRole('row').filter({ hasText: name });
    await row.waitFor();
    await expect(row.getByText('已预约').count()).resolves.toBe(1);

    const registrar = await apiLogin('registrar');
    const buckets = await api<{ id: string }[]>('/yyp/api/v1/registry-buckets', registrar.accessToken);
    const bucketId = buckets.body[0]!.id;
    const scheduled = (await deskItem(registrar.accessToken, bucketId, name))!;
    expect(scheduled).toMatchObject({ status: 'Scheduled', scheduledDate: tomorrow, patient: { name } });

    // The CT asks its worklist for tomorrow and finds the patient, in the hospital's GB18030.
    const port = Number(inject('dicomPort'));
    const query = await worklistQueryFile(
      dir,
      'tomorrow',
      [
        '(0008,0005) CS [ISO_IR 192]',
        '(0010,0010) PN []',
        '(0010,0020) LO []',
        '(0008,0050) SH []',
        '(0020,000d) UI []',
        '(0040,0100) SQ',
        '(fffe,e000) -',
        '(0008,0060) CS [CT]',
        '(0040,0001) AE []',
        `(0040,0002) DA [${tomorrow.replace(/-/g, '')}]`,
        '(0040,0009) SH []',
        '(fffe,e00d) -',
        '(fffe,e0dd) -',
      ],
      'ISO_IR 192',
    );
    const answers = await findscuWorklist(dir, port, 'DEMO_MODALITY', query);
    const ours = answers.find((a) => dumpValue(a.dump, '0008,0050') === scheduled.accessionNumber);
    expect(ours, 'the worklist answers the scheduled exam').toBeDefined();
    expect(ours!.charset).toBe('GB18030');
    expect(dumpValue(ours!.dump, '0010,0010')).toBe(name);
    expect(dumpValue(ours!.dump, '0020,000d')).toBe(scheduled.studyInstanceUid);

    // Its MPPS: in progress, then completed.
    const pps = `2.25.${Date.now()}`;
    const scu = await TestScu.associate(port, {
      callingAe: 'DEMO_MODALITY',
      contexts: [{ id: 1, abstractSyntax: MPPS_SOP_CLASS, transferSyntaxes: ['1.2.840.10008.1.2'] }],
    });
    const started = mppsInProgress({
      charset: 'GB18030',
      patientName: name,
      patientId: scheduled.patient.patientId,
      station: 'DEMO_MODALITY',
      steps: [{ accessionNumber: scheduled.accessionNumber, studyInstanceUid: scheduled.studyInstanceUid }],
    }).toBuffer(false);
    scu.send(
      1,
      { commandField: COMMAND.nCreateRq, affectedSopClassUid: MPPS_SOP_CLASS, affectedSopInstanceUid: pps },
      started,
    );
    expect((await scu.responsesUntilFinal())[0]!.status).toBe(0x0000);
    expect(await deskItem(registrar.accessToken, bucketId, scheduled.accessionNumber)).toMatchObject({
      status: 'Arrived',
    });
    scu.send(
      1,
      { commandField: COMMAND.nSetRq, requestedSopClassUid: MPPS_SOP_CLASS, requestedSopInstanceUid: pps },
      new DatasetBuilder().text(MPPS_TAG.status, 'CS', 'COMPLETED').toBuffer(false),
    );
    expect((await scu.responsesUntilFinal())[0]!.status).toBe(0x0000);
    await scu.release();
    expect(await deskItem(registrar.accessToken, bucketId, scheduled.accessionNumber)).toMatchObject({
      status: 'Performed',
    });

    // The study, stored with the scheduled keys, lands on the exam.
    await stowScheduledStudy(bucketId, scheduled, tomorrow.replace(/-/g, ''));
    await expect
      .poll(async () => (await deskItem(registrar.accessToken, bucketId, scheduled.accessionNumber))?.examId ?? null, {
        timeout: 10_000,
      })
      .toBeTruthy();
    const performed = (await deskItem(registrar.accessToken, bucketId, scheduled.accessionNumber))!;
    await page.reload();
    await page.getByRole('row').filter({ hasText: name }).getByText('已检查').waitFor();
    await screenshot(page, 'registry-performed');

    // The doctor finds the exam on /studies.
    const doctor = await apiLogin('doctor');
    expect(await examIdsOfPatient(doctor.accessToken, scheduled.patient.patientId)).toEqual([performed.examId]);
    await pages.reopen();
    await loginViaUi(page, 'doctor');
    await page.getByRole('tab', { name: '全部检查' }).click();
    await page.getByLabel('姓名、拼音首字母、患者编号或检查号（/）').fill(name);
    await page.getByRole('row').filter({ hasText: name }).first().waitFor();
  });
});
