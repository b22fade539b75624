import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  api,
  apiLogin,
  browserPerFile,
  examIdsOfPatient,
  loginViaUi,
  screenshot,
  stowStudy,
  todayDicom,
} from './support.js';

/**
 * Image binding in the browser (issue 22): a study stored with an accession number the desk never
 * gave lands unscheduled; the demo registrar finds it on /studies, opens "匹配登记检查" in its row
 * menu, searches the scheduled exam, types its accession number and matches it; the scheduled exam
 * is Performed with that exam, which now carries the registration's patient and accession number.
 */
let page: Page;

browserPerFile((current) => ({ page } = current));

interface Item {
  id: string;
  status: string;
  accessionNumber: string;
  examId: string | null;
}

/** The hospital's today (China Standard Time), as the registry's scheduled date. */
const hospitalToday = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);

describe('image binding', () => {
  it('the registrar matches an unscheduled study to its scheduled exam from the study list', async () => {
    const stamp = Date.now() % 1_000_000;
    const name = `绑定测试${stamp}`;
    const registrar = await apiLogin('registrar');
    const bucketId = (await api<{ id: string }[]>('/yyp/api/v1/registry-buckets', registrar.accessToken)).body[0]!.id;
    const registered = await api<{ exams: Item[] }>('/yyp/api/v1/registry', registrar.accessToken, {
      method: 'POST',
      body: JSON.stringify({
        bucketId,
        patient: { name, gender: 'F', birthDate: '19750310' },
        exams: [{ modality: 'CT', scheduledDate: hospitalToday() }],
      }),
    });
    expect(registered.status).toBe(201);
    const scheduled = registered.body.exams[0]!;
    // The modality typed another accession number: the study lands unscheduled.
    const patientId = `UNBOUND-${stamp}`;
    const tech = await apiLogin('tech');
    await stowStudy(tech.accessToken, bucketId, {
      modality: 'CT',
      instancesPerSeries: 1,
      rows: 32,
      columns: 32,
      patientName: 'UNBOUND^STUDY',
      patientId,
      accessionNumber: `TYPO-${stamp}`,
      studyDate: todayDicom(),
    });
    let examId: string | undefined;
    for (let i = 0; i < 50 && !examId; i++) {
      examId = (await examIdsOfPatient(registrar.accessToken, patientId))[0];
      if (!examId) await new Promise((r) => setTimeout(r, 100));
    }
    expect(examId).toBeTruthy();

    await loginViaUi(page, 'registrar');
    await page.getByRole('tab', { name: '全部检查' }).click();
    await page.getByLabel('姓名、拼音首字母、患者编号或检查号（/）').fill(patientId);
    await page.getByTestId(`more-${examId}`).click();
    await page.getByRole('menuitem', { name: '匹配登记检查' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('searchbox', { name: '姓名、患者编号或检查号' }).fill(scheduled.accessionNumber);
    await dialog.getByRole('searchbox', { name: '姓名、患者编号或检查号' }).press('Enter');
    await dialog.getByRole('row').filter({ hasText: name }).click();
    await dialog.getByTestId('binding-confirm').fill(scheduled.accessionNumber);
    await screenshot(page, 'binding-dialog');
    await dialog.getByTestId('binding-ok').click();
    await page.getByText(`已匹配到 ${scheduled.accessionNumber}。`).waitFor();

    const after = await api<{ items: Item[] }>(
      `/yyp/api/v1/buckets/${bucketId}/registry/query`,
      registrar.accessToken,
      {
        method: 'POST',
        body: JSON.stringify({ q: scheduled.accessionNumber }),
      },
    );
    expect(after.body.items[0]).toMatchObject({ id: scheduled.id, status: 'Performed', examId });
    const exam = await api<{ accessionNumber: string; patientName: string }>(
      `/yyp/api/v1/exams/${examId}`,
      registrar.accessToken,
    );
    expect(exam.body).toMatchObject({ accessionNumber: scheduled.accessionNumber, patientName: name });
  });
});
