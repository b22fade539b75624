import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hospitalDate, STAT_KIND_LABELS, type StatTable, type TurnaroundSlowest } from '@yyp/contracts';
import type { Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  api,
  apiLogin,
  browserPerFile,
  chooseLanguage,
  loginViaUi,
  screenshot,
  shotIfFailed,
  step,
  type BrowserPage,
} from './support.js';

/**
 * Issue 26's "Done when" in the browser: the demo group admin (周管理) opens /group-statistics from
 * the navbar, picks last month, sees the workload per doctor (the demo's report history: 李医生
 * writes, 王主任 approves) with the same numbers the API counts, drills into 李医生's reports,
 * exports the table to Excel, sees the positive rate per modality, and the turnaround from
 * registration to approval by modality with the slowest exams; the page in en and tib.
 */
const V1 = '/yyp/api/v1';

/** Minutes as the statistics table writes them (whole, else one decimal). */
const minutesText = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(1));

/** Last month in hospital days, as the page's "上个月" preset takes it. */
function lastMonth(): { from: string; to: string } {
  const today = hospitalDate(new Date());
  const first = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 2, 1));
  const last = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 1, 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}

/** The screens the statistics must fit (the e2e's own 1366×820 last, so the next steps see it again). */
const SCREENS = [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
  { width: 1366, height: 820 },
];

/**
 * The statistics page at each of SCREENS: no horizontal page scroll, every tab (the first and the
 * active one among them) within the tab row, and the statistic's table whole: its last header cell
 * inside the table's own box (nothing scrolled out of sight) and the viewport. `shot` names a
 * screenshot of the chart and table at each width (the 1366 one without a suffix).
 */
async function expectFits(page: Page, shot?: string): Promise<void> {
  const table = page.locator('.ant-table-wrapper').first();
  const lastHeader = table.locator('.ant-table-thead th').last();
  const right = async (element: Locator) => {
    const box = await element.boundingBox();
    return box ? box.x + box.width : Number.NaN;
  };
  for (const screen of SCREENS) {
    await page.setViewportSize(screen);
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth))
      .toBeLessThanOrEqual(0);
    await expect.poll(() => right(lastHeader)).toBeLessThanOrEqual(screen.width);
    const tableRight = await right(table);
    await expect.poll(() => right(lastHeader)).toBeLessThanOrEqual(tableRight + 0.5);
    expect(await page.getByRole('tab').count()).toBe(Object.keys(STAT_KIND_LABELS).length);
    // the tabs out of the tab row's sight (scrolled away or behind its "more" menu)
    const tabsOutOfSight = () =>
      page.evaluate(() => {
        const row = document.querySelector('.ant-tabs-nav-wrap')!.getBoundingClientRect();
        return [...document.querySelectorAll('.ant-tabs-nav-wrap .ant-tabs-tab')]
          .filter((tab) => {
            const box = tab.getBoundingClientRect();
            return box.left < row.left - 0.5 || box.right > row.right + 0.5 || box.bottom > row.bottom + 0.5;
          })
          .map((tab) => tab.textContent);
      });
    await expect.poll(tabsOutOfSight).toEqual([]);
    if (shot) {
      await page.evaluate(() => {
        const panel = document.querySelector('.yyp-stat-panel');
        if (panel) window.scrollTo(0, panel.getBoundingClientRect().top + window.scrollY - 72);
      });
      await screenshot(page, screen.width === 1366 ? shot : `${shot}-${screen.width}`);
      await page.evaluate(() => window.scrollTo(0, 0));
    }
  }
}

describe('statistics: the group admin runs the department from its numbers', () => {
  let t = {} as BrowserPage;
  browserPerFile((current) => (t = current));
  afterEach(async ({ task }) => {
    await shotIfFailed(task, t.page);
  });

  it("sees last month's workload per doctor and positive rate per modality, drills into a doctor and exports", async () => {
    const token = (await apiLogin('groupadmin')).accessToken;
    const { from, to } = lastMonth();
    const table = async (kind: string, by: string) =>
      (await api<StatTable>(`${V1}/statistics/${kind}?from=${from}&to=${to}&by=${by}`, token)).body;
    // The demo's history is stored in the background at first start: wait until it is counted.
    await expect
      .poll(async () => (await table('report', 'doctor')).totals.written ?? 0, { timeout: 60_000 })
      .toBeGreaterThan(0);
    const workload = await table('report', 'doctor');
    const writer = workload.rows.find((r) => r.label === '李医生')!;
    const approver = workload.rows.find((r) => r.label === '王主任')!;
    expect(writer.values.written).toBeGreaterThan(0);
    expect(approver.values.approved).toBe(writer.values.written);

    step('open the statistics from the navbar');
    await loginViaUi(t.page, 'groupadmin');
    await t.page.getByRole('navigation').getByRole('link', { name: '统计', exact: true }).click();
    await t.page.waitForURL('**/group-statistics');
    await t.page.getByRole('tab', { name: STAT_KIND_LABELS.report.chs }).waitFor();

    step('last month, by doctor');
    await t.page.getByRole('button', { name: '上个月' }).click();
    const writerRow = t.page.getByRole('row').filter({ hasText: '李医生' });
    await expect
      .poll(async () => (await writerRow.first().innerText()).replace(/\s+/g, ' '), { timeout: 15_000 })
      .toContain(String(writer.values.written));
    await t.page.getByRole('row').filter({ hasText: '王主任' }).first().waitFor();
    await t.page.locator('.yyp-echart canvas, .yyp-echart svg').first().waitFor();
    await screenshot(t.page, 'statistics-workload');

    step("drill into 李医生's reports: the group admin may not list exams, so the statistics' own list opens");
    await writerRow.first().getByRole('button', { name: '李医生' }).click();
    const drawer = t.page.locator('.ant-drawer');
    await drawer.getByText(`共 ${writer.values.written} 份报告`).waitFor();
    await drawer.getByRole('row').nth(1).waitFor();
    await screenshot(t.page, 'statistics-drill');
    await t.page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    step('export the table');
    const [download] = await Promise.all([
      t.page.waitForEvent('download'),
      t.page.getByRole('button', { name: /导出\s*Excel/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^statistics-report-.*\.xlsx$/);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-stat-')), download.suggestedFilename());
    await download.saveAs(file);
    expect(fs.readFileSync(file).subarray(0, 2).toString()).toBe('PK');

    step('positive rate per modality');
    const positive = await table('report-positive', 'modality');
    const ct = positive.rows.find((r) => r.key === 'CT')!;
    expect(ct.values.positive).toBeGreaterThan(0);
    await t.page.getByRole('tab', { name: STAT_KIND_LABELS['report-positive'].chs }).click();
    await t.page.getByRole('button', { name: '上个月' }).click();
    const ctRow = t.page.getByRole('row').filter({ has: t.page.getByRole('cell', { name: 'CT', exact: true }) });
    await expect
      .poll(async () => (await ctRow.first().innerText()).replace(/\s+/g, ' '), { timeout: 15_000 })
      .toContain(String(ct.values.positive));
    await screenshot(t.page, 'statistics-positive');

    step('turnaround from registration to approval by modality, and the slowest exams');
    const turnaround = (await api<StatTable>(`${V1}/statistics/turnaround?from=${from}&to=${to}&by=modality`, token))
      .body;
    const lists = (await api<TurnaroundSlowest>(`${V1}/statistics/turnaround/slowest?from=${from}&to=${to}`, token))
      .body;
    expect(turnaround.rows.length).toBeGreaterThan(0);
    expect(lists.slowest.length).toBeGreaterThan(0);
    await t.page.getByRole('tab', { name: STAT_KIND_LABELS.turnaround.chs }).click();
    await t.page.getByRole('button', { name: '上个月' }).click();
    // Registration → approval is the default interval.
    const stepShown = (label: string) =>
      t.page
        .locator('.ant-select')
        .filter({ has: t.page.getByLabel(label) })
        .first()
        .innerText();
    await expect.poll(() => stepShown('起点')).toContain('登记');
    await expect.poll(() => stepShown('终点')).toContain('审核');
    for (const row of turnaround.rows) {
      const line = t.page.getByRole('row').filter({ has: t.page.getByRole('cell', { name: row.key, exact: true }) });
      const { exams, medianMinutes, p90Minutes } = row.values;
      await expect
        .poll(async () => (await line.first().innerText()).split(/\s+/), { timeout: 15_000 })
        .toEqual(expect.arrayContaining([String(exams), minutesText(medianMinutes!), minutesText(p90Minutes!)]));
    }
    // The slowest exams, each with its minutes, in the API's order.
    const slowRows = t.page.getByRole('row').filter({ hasText: /RH-H-\d{4}/ });
    await expect.poll(() => slowRows.count(), { timeout: 15_000 }).toBe(lists.slowest.length);
    for (const [i, item] of lists.slowest.slice(0, 5).entries()) {
      const text = await slowRows.nth(i).innerText();
      expect(text).toContain(item.accessionNumber);
      expect(text).toContain(String(Math.round(item.minutes)));
    }
    // The table by modality at the top of the shot (under the navbar), the slowest exams below it.
    await t.page.evaluate(() => {
      const table = document.querySelector('.ant-table');
      if (table) window.scrollTo(0, table.getBoundingClientRect().top + window.scrollY - 72);
    });
    await screenshot(t.page, 'statistics-turnaround');
    await t.page.evaluate(() => window.scrollTo(0, 0));
    await expectFits(t.page);

    step('the page in English and Tibetan');
    await chooseLanguage(t.page, '语言', 'English');
    await t.page.getByRole('tab', { name: STAT_KIND_LABELS['report-positive'].en }).waitFor();
    await screenshot(t.page, 'statistics-en');
    await expectFits(t.page);
    await chooseLanguage(t.page, 'Language', 'བོད་ཡིག');
    await t.page.getByRole('tab', { name: STAT_KIND_LABELS['report-positive'].tib }).waitFor();
    await screenshot(t.page, 'statistics-tib');
    // Tibetan's long labels: the turnaround's table under its chart, its last column ("past the target") in view.
    await t.page.getByRole('columnheader', { name: /བརྒལ/ }).first().waitFor();
    await expectFits(t.page, 'statistics-turnaround-tib');
  });

  it("lets the department head (王主任), who reads the exams, drill from 李医生's workload into /studies with the filters applied", async () => {
    const token = (await apiLogin('senior')).accessToken;
    const { from, to } = lastMonth();
    const workload = (await api<StatTable>(`${V1}/statistics/report?from=${from}&to=${to}&by=doctor`, token)).body;
    const writer = workload.rows.find((r) => r.label === '李医生')!;
    expect(writer.values.written).toBeGreaterThan(0);

    step('open the statistics from the navbar, last month');
    await loginViaUi(t.page, 'senior');
    await t.page.getByRole('navigation').getByRole('link', { name: '统计', exact: true }).click();
    await t.page.getByRole('tab', { name: STAT_KIND_LABELS.report.chs }).waitFor();
    await t.page.getByRole('button', { name: '上个月' }).click();
    const writerRow = t.page.getByRole('row').filter({ hasText: '李医生' });
    await expect
      .poll(async () => (await writerRow.first().innerText()).replace(/\s+/g, ' '), { timeout: 15_000 })
      .toContain(String(writer.values.written));

    step("drill into 李医生's reports: the study list, filtered");
    await writerRow.first().getByRole('button', { name: '李医生' }).click();
    await t.page.waitForURL(/\/studies\?filters=/);
    const drill = JSON.parse(new URL(t.page.url()).searchParams.get('filters')!) as {
      field: string;
      operator: string;
      values: string[];
    }[];
    expect(drill).toContainEqual({ field: 'reportWriterId', operator: 'eq', values: [writer.key] });
    expect(drill).toContainEqual({ field: 'reportApproved', operator: 'range', values: [from, to] });
    await t.page.getByText(`来自统计：李医生 · ${from} 至 ${to} · 已审核`).waitFor();
    await t.page.getByText(`共 ${writer.values.written} 条`).first().waitFor();
    await t.page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    await screenshot(t.page, 'statistics-drill-studies');
  });
});
