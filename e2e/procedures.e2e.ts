import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserPerFile, loginViaUi, screenshot } from './support.js';

/**
 * Issue 22, procedure management in the browser: the demo organization admin opens 放射科's
 * procedure management tab, adds a procedure and a device and sees them listed, imports the
 * template it downloads once filled in, sees a refused sheet's rows, and deletes what it added (the
 * demo server is shared by the later specs).
 */
let page: Page;

browserPerFile((current) => ({ page } = current));

/** antd puts a space between two CJK characters of a button (保 存). */
function spaced(label: string): RegExp {
  return new RegExp(`(^|\\s)${[...label].join('\\s?')}$`);
}

function button(scope: Page | Locator, label: string): Locator {
  return scope.getByRole('button', { name: spaced(label) });
}

async function toast(p: Page, text: string): Promise<void> {
  await p.locator('.ant-message').getByText(text).waitFor();
}

/** Screens are pictured without the toasts of earlier steps lying over them. */
async function shot(p: Page, name: string): Promise<void> {
  await p.waitForFunction(() => !document.querySelector('.ant-message-notice'), undefined, { timeout: 10_000 });
  await screenshot(p, name);
}

/** An .xlsx whose second row lacks its code and names a device group the organization lacks. */
async function badSheet(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('检查项目');
  sheet.addRow(['名称', '编码', '检查类型', '价格', '设备组']);
  sheet.addRow(['膝关节MR平扫', '', 'MR', '12.345', '不存在的设备组']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('procedure management', () => {
  it('the organization admin adds a procedure and a device and sees them listed', async () => {
    const suffix = Date.now().toString(36).toUpperCase();
    const procedureName = `膝关节MR${suffix}`;
    const code = `E2E-${suffix}`;
    const deviceName = `MR 机房 ${suffix}`;
    const aeTitle = `E2E${suffix}`;
    const importedName = `导入胸片${suffix}`;
    const importedCode = `IMP-${suffix}`;

    await loginViaUi(page, 'groupadmin');
    await page.getByRole('link', { name: '我的集团' }).click();
    await page.getByRole('link', { name: '仁和医院' }).first().click();
    await page.getByRole('tab', { name: '机构' }).click();
    await page.getByRole('link', { name: '放射科' }).click();
    await page.getByRole('tab', { name: '检查项目管理' }).click();
    await page.getByRole('row').filter({ hasText: '胸部CT平扫' }).waitFor();
    await shot(page, 'procedures-list');

    // A procedure, through the drawer.
    await button(page, '新增检查项目').click();
    const drawer = page.getByRole('dialog', { name: '新增检查项目' });
    await drawer.getByLabel('名称', { exact: true }).fill(procedureName);
    await drawer.getByLabel('编码', { exact: true }).fill(code);
    await drawer.getByLabel('英文名称').fill('Knee MR, plain');
    await drawer.getByLabel('检查类型').fill('MR');
    // close the suggestions by clicking the title (Escape would close the drawer)
    await drawer.locator('.ant-drawer-title').click();
    await drawer.getByLabel('价格（元）').fill('450.5');
    await drawer.getByLabel('步骤').click();
    await page.keyboard.type('摆位');
    await page.keyboard.press('Enter');
    await page.keyboard.type('扫描');
    await page.keyboard.press('Enter');
    await drawer.getByLabel('检查中报告').click();
    await shot(page, 'procedures-drawer');
    await button(drawer, '保存').click();
    await toast(page, `检查项目 ${procedureName} 已保存。`);
    const procedureRow = page.getByRole('row').filter({ hasText: procedureName });
    await procedureRow.waitFor();
    for (const text of [code, 'Knee MR, plain', '450.50', '摆位 → 扫描']) {
      await procedureRow.getByText(text, { exact: true }).waitFor();
    }

    // Search narrows the list to it.
    await page.getByPlaceholder('按名称、编码、英文名称或检查类型搜索').fill(code.toLowerCase());
    await page.getByText('清除搜索后才能调整顺序。').waitFor();
    await expect.poll(() => page.locator('tbody tr.ant-table-row').count()).toBe(1);
    await shot(page, 'procedures-search');
    await page.getByPlaceholder('按名称、编码、英文名称或检查类型搜索').fill('');

    // A device, with the Chinese worklist character set.
    await page.getByRole('tab', { name: '设备', exact: true }).click();
    await button(page, '新增设备').click();
    const modal = page.getByRole('dialog', { name: '新增设备' });
    await modal.getByLabel('名称', { exact: true }).fill(deviceName);
    await modal.getByLabel('AE 名称').fill(aeTitle);
    await modal.getByLabel('主机地址').fill('192.168.10.31');
    await modal.getByLabel('端口').fill('104');
    await modal.getByLabel('检查类型').fill('MR');
    await modal.locator('.ant-modal-title').click();
    await modal.getByLabel('检查室').fill('三号检查室');
    await modal.getByLabel('Worklist 字符集').click();
    await page.getByTitle('中文（GB18030）').click();
    await button(modal, '保存').click();
    await toast(page, `设备 ${deviceName} 已保存。`);
    const deviceRow = page.getByRole('row').filter({ hasText: deviceName });
    for (const text of [aeTitle, '192.168.10.31', '104', '三号检查室', '中文（GB18030）']) {
      await deviceRow.getByText(text, { exact: true }).waitFor();
    }
    await shot(page, 'procedures-devices');

    // The template the browser writes: the header row the server reads; filled in, it imports.
    await page.getByRole('tab', { name: '检查项目', exact: true }).click();
    await button(page, 'Excel 导入').click();
    const importModal = page.getByRole('dialog', { name: '从 Excel 导入检查项目' });
    const [download] = await Promise.all([page.waitForEvent('download'), button(importModal, '下载模板').click()]);
    expect(download.suggestedFilename()).toBe('检查项目.xlsx');
    const template = new ExcelJS.Workbook();
    const bytes = await readFile(await download.path());
    await template.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    const header = template.worksheets[0]!.getRow(1).values as unknown[];
    expect(header.slice(1, 4)).toEqual(['名称', '编码', '英文名称']);
    template.worksheets[0]!.addRow([importedName, importedCode, '', '88.5', '', '', '2', 'DX']);
    await importModal.locator('input[type=file]').setInputFiles({
      name: 'filled.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(await template.xlsx.writeBuffer()),
    });
    await importModal.getByText('已从 filled.xlsx 导入：新增 1 个，更新 0 个。').waitFor();
    const importedRow = page.getByRole('row').filter({ hasText: importedName });
    await importedRow.getByText('88.50', { exact: true }).waitFor();

    // A refused sheet: its rows are listed, nothing is imported.
    await importModal.locator('input[type=file]').setInputFiles({
      name: 'bad.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await badSheet(),
    });
    await importModal.getByText(/未从 bad\.xlsx 导入任何数据/).waitFor();
    await importModal.getByRole('row').filter({ hasText: '设备组' }).waitFor();
    await importModal.getByRole('row').filter({ hasText: '价格（元）' }).waitFor();
    await shot(page, 'procedures-import-refused');
    await importModal.locator('.ant-modal-close').click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: '膝关节MR平扫' }).count()).toBe(0);

    // Delete both again (asked first), so the later specs find the demo as seeded.
    await button(procedureRow, '删除').click();
    await button(page.locator('.ant-popover'), '删除').click();
    await toast(page, `检查项目 ${procedureName} 已删除。`);
    await procedureRow.waitFor({ state: 'detached' });
    await button(importedRow, '删除').click();
    await button(page.locator('.ant-popover'), '删除').click();
    await importedRow.waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: '设备', exact: true }).click();
    await button(deviceRow, '删除').click();
    await button(page.locator('.ant-popover'), '删除').click();
    await toast(page, `设备 ${deviceName} 已删除。`);
    await deviceRow.waitFor({ state: 'detached' });
  }, 180_000);

  it('a member sees procedure management read-only', async () => {
    await loginViaUi(page, 'doctor');
    await page.getByRole('link', { name: '我的集团' }).click();
    await page.getByRole('link', { name: '仁和医院' }).first().click();
    await page.getByRole('tab', { name: '机构' }).click();
    await page.getByRole('link', { name: '放射科' }).click();
    await page.getByRole('tab', { name: '检查项目管理' }).click();
    await page.getByRole('row').filter({ hasText: '胸部CT平扫' }).waitFor();
    await page.getByText('您可以查看检查项目管理；只有机构或集团的管理员可以修改。').waitFor();
    expect(await button(page, '新增检查项目').count()).toBe(0);
    expect(await button(page, 'Excel 导入').count()).toBe(0);
    expect(await page.getByRole('row').filter({ hasText: '胸部CT平扫' }).getByRole('button').count()).toBe(0);
    await page.getByRole('tab', { name: '设备', exact: true }).click();
    await page.getByRole('row').filter({ hasText: 'DEMO_MODALITY' }).waitFor();
    expect(await button(page, '新增设备').count()).toBe(0);
    await shot(page, 'procedures-readonly');
  });
});
