import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { barcodesOnPage } from '../packages/server/src/modules/registry-print/code128.fixture.js';
import { api, apiLogin, baseUrl, browserPerFile, screenshot, signIn } from './support.js';

/**
 * Issue 22's labels in the browser: a registered outpatient's exams printed from /registry — the
 * label opened in a tab for the browser to print, the 80×50 mm PDF downloaded, read back with
 * poppler (pdfinfo, pdftoppm) and its barcodes decoded from the rendered pixels; the referral form
 * of the day's two exams opened as well.
 */
let context: BrowserContext;
let page: Page;
const shots = path.join(import.meta.dirname, 'screenshots');

browserPerFile((current) => ({ context, page } = current), { pdfViewer: true });

/** Tomorrow in the hospital's time zone (UTC+8), YYYY-MM-DD. */
const tomorrow = () => new Date(Date.now() + (8 + 24) * 3_600_000).toISOString().slice(0, 10);

interface Registration {
  passCode: string;
  patient: { patientId: string };
  exams: { id: string; accessionNumber: string }[];
}

describe('front desk printing', () => {
  it('prints the labels and the referral form of a registered outpatient', async () => {
    const name = `标签测试${Date.now() % 100000}`;
    const registrar = await apiLogin('registrar');
    const buckets = await api<{ id: string }[]>('/yyp/api/v1/registry-buckets', registrar.accessToken);
    const bucketId = buckets.body[0]!.id;
    const procedures = await api<{ id: string; name: string }[]>(
      `/yyp/api/v1/buckets/${bucketId}/procedures`,
      registrar.accessToken,
    );
    const ct = procedures.body.find((p) => p.name.startsWith('胸部CT平扫'));
    expect(ct).toBeTruthy();
    const created = await api<Registration>('/yyp/api/v1/registry', registrar.accessToken, {
      method: 'POST',
      body: JSON.stringify({
        bucketId,
        patient: { name, gender: 'F', birthDate: '19850312', phone: '13900000000' },
        patientSource: 'O',
        outpatientId: 'MZ-E2E',
        applyDept: '呼吸内科',
        exams: [
          { procedureId: ct!.id, scheduledDate: tomorrow(), scheduledTime: '09:30' },
          { modality: 'DX', bodyPart: '胸部', scheduledDate: tomorrow() },
        ],
      }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const reg = created.body;

    await signIn(page, 'registrar', '/registry');
    await page.getByLabel('姓名、拼音首字母、患者编号、检查号、电话或取号码').fill(name);
    await page.keyboard.press('Enter');
    const rows = page.getByRole('row').filter({ hasText: name });
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);

    // A row's label opens in a new tab, where the browser's PDF viewer prints it.
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      rows.first().getByRole('button', { name: '标签', exact: true }).click(),
    ]);
    await expect.poll(() => tab.url(), { timeout: 30_000 }).toMatch(/^blob:/);
    await tab.close();

    // Both exams selected: their labels downloaded as one PDF, 80×50 mm a page.
    for (const i of [0, 1]) await rows.nth(i).locator('.ant-checkbox-input').check();
    await screenshot(page, 'registry-print');
    await page.getByRole('button', { name: '更多标签打印方式' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: '下载 PDF' }).click(),
    ]);
    const file = path.join(shots, 'registry-label.pdf');
    await download.saveAs(file);
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    expect(info).toMatch(/Pages:\s+2/);
    expect(info).toMatch(/Page size:\s+226\.77\d* x 141\.73\d* pts/);
    const accessions = reg.exams.map((e) => e.accessionNumber).sort();
    expect([...barcodesOnPage(file, 1), ...barcodesOnPage(file, 2)].sort()).toEqual(accessions);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain(name);
    expect(text).toContain(reg.patient.patientId);
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '150',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      file,
      path.join(shots, 'registry-label'),
    ]);
    for (const leftover of fs.readdirSync(shots).filter((f) => /^registry-label-p\d\.pgm$/.test(f))) {
      fs.rmSync(path.join(shots, leftover));
    }

    // The referral form of the day's two exams, on the organization's template.
    const [form] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: '打印申请单 (2)' }).click(),
    ]);
    await expect.poll(() => form.url(), { timeout: 30_000 }).toMatch(/^blob:/);
  });

  it("prints the referral form on the template the organization's admin set", async () => {
    const registrar = await apiLogin('registrar');
    const bucketId = (await api<{ id: string }[]>('/yyp/api/v1/registry-buckets', registrar.accessToken)).body[0]!.id;
    await signIn(page, 'groupadmin', `/groups/demo-renhe/organizations/${bucketId}?tab=settings`);
    const card = page.locator('.ant-card').filter({ hasText: '申请单模板' });
    const header = card.locator('#orderTemplate_headerLines');
    await expect.poll(() => header.inputValue(), { timeout: 15_000 }).toContain('仁和医院');
    await header.fill('仁和医院\n放射科 · 健康路1号');
    await card.locator('#orderTemplate_title').fill('CT/DR 检查申请单');
    await card.locator('#orderTemplate_footerNote').fill('检查前请取下金属物品，携带本单到二楼登记台。');
    await card.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('申请单模板已保存。').waitFor();
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'registry-order-template');

    const name = `申请单测试${Date.now() % 100000}`;
    const created = await api<Registration>('/yyp/api/v1/registry', registrar.accessToken, {
      method: 'POST',
      body: JSON.stringify({
        bucketId,
        patient: { name, gender: 'M', birthDate: '19700101' },
        patientSource: 'I',
        inpatientId: 'ZY-E2E',
        bedNum: '12',
        clinicImpression: '胸痛待查',
        exams: [
          { modality: 'CT', bodyPart: '胸部', scheduledDate: tomorrow() },
          { modality: 'DX', bodyPart: '胸部', scheduledDate: tomorrow() },
        ],
      }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const res = await fetch(`${baseUrl()}/yyp/api/v1/orders/referral-forms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${registrar.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scheduledIds: created.body.exams.map((e) => e.id) }),
    });
    expect(res.status).toBe(200);
    const file = path.join(shots, 'registry-referral.pdf');
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    for (const s of ['CT/DR 检查申请单', '放射科 · 健康路1号', name, '胸痛待查', '检查前请取下金属物品']) {
      expect(text).toContain(s);
    }
    expect(barcodesOnPage(file, 1).sort()).toEqual(created.body.exams.map((e) => e.accessionNumber).sort());
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '100',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      file,
      path.join(shots, 'registry-referral'),
    ]);
    fs.rmSync(path.join(shots, 'registry-referral-p1.pgm'), { force: true });
  });
});
