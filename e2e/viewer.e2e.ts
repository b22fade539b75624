import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateStudy, writeStudy, type StudyOptions } from '../packages/server/src/dicom/testdata/generate.js';
import {
  api,
  apiLogin,
  launchBrowser,
  loginViaUi,
  openPage,
  screenshot,
  stowInstances,
  shotIfFailed,
  waitForZhangWeiCts,
} from './support.js';
import { canvasStats } from './support-canvas.js';

const run = promisify(execFile);

/**
 * The viewer as a doctor uses it (issue 6 "Done when"): from the study list the doctor opens
 * yesterday's chest CT of 张伟 (the demo generator's phantom: water 0 HU around the centre), sees
 * the first image, scrolls, changes the window, measures the water with an elliptical ROI, compares
 * with last year's CT and sends a key image to the report.
 */

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  await waitForZhangWeiCts();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async ({ task }) => {
  await shotIfFailed(task, page);
});

describe('image viewer', () => {
  it('opens a CT from the study list, scrolls, windows, measures HU, compares and sends a key image', async () => {
    const [current] = (await waitForZhangWeiCts()).sort((a, b) => b.studyDate.localeCompare(a.studyDate));
    ({ context, page } = await openPage(browser));
    await loginViaUi(page, 'senior');
    await page.getByRole('tab', { name: '昨天', exact: true }).click();
    const row = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: '张伟' });
    await expect.poll(() => row.count()).toBe(1);

    const [viewer] = await Promise.all([
      context.waitForEvent('page'),
      row.getByRole('button', { name: '影像' }).click(),
    ]);
    page = viewer;
    page.setDefaultTimeout(20_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('instance-0').filter({ hasText: '(1/120)' }).waitFor();
    await expect.poll(async () => (await canvasStats(page)).lit, { timeout: 20_000 }).toBeGreaterThan(10_000);
    // The corners show the patient (the senior doctor may see private fields) and the stored window.
    await expect(page.getByTestId('overlay-tl-0').textContent()).resolves.toContain('张伟');
    await expect(page.getByTestId('wl-0').textContent()).resolves.toBe('W: 400 L: 40');
    await screenshot(page, 'viewer-ct');

    // Scrolling with the wheel and the keys changes the displayed instance.
    const element = page.getByTestId('viewport-0');
    await element.hover();
    await page.mouse.wheel(0, 120);
    await page.getByTestId('instance-0').filter({ hasText: '(2/120)' }).waitFor();
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
    await page.getByTestId('instance-0').filter({ hasText: '图像: 6 (6/120)' }).waitFor();

    // The lung window (key 1) changes the pixels.
    const before = await canvasStats(page);
    await page.keyboard.press('1');
    await page.getByTestId('wl-0').filter({ hasText: 'W: 1500 L: -600' }).waitFor();
    await expect.poll(async () => (await canvasStats(page)).sum).not.toBe(before.sum);
    await page.keyboard.press('9');
    await page.getByTestId('wl-0').filter({ hasText: 'W: 400 L: 40' }).waitFor();

    // Rotate, flip and invert each change the picture; reset brings the stored view back.
    const stored = await canvasStats(page);
    for (const key of [']', 'h', 'i']) {
      const previous = await canvasStats(page);
      await page.keyboard.press(key);
      await expect.poll(async () => (await canvasStats(page)).sum, { timeout: 5_000 }).not.toBe(previous.sum);
    }
    await page.keyboard.press('0');
    await expect.poll(async () => (await canvasStats(page)).sum, { timeout: 5_000 }).toBe(stored.sum);

    // An elliptical ROI in the centre of the phantom (water, exactly 0 HU) reads 0 HU, SD 0.
    await page.getByTestId('tool-EllipticalROI').click();
    const box = (await element.boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    // The ellipse is drawn from its centre outwards.
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    await page.mouse.move(cx + 15, cy + 15, { steps: 5 });
    await page.mouse.move(cx + 30, cy + 30, { steps: 5 });
    await page.mouse.up();
    const roi = page.getByTestId('measurement').first();
    await roi.filter({ hasText: 'HU' }).waitFor();
    await expect(roi.textContent()).resolves.toMatch(/均值 0\.0 HU, 标准差 0\.0/);

    // A length on the image is measured in millimetres (Pixel Spacing calibrates it).
    await page.getByTestId('tool-Length').click();
    await page.mouse.move(cx - 100, cy + 80);
    await page.mouse.down();
    await page.mouse.move(cx + 100, cy + 80, { steps: 8 });
    await page.mouse.up();
    // 200 screen pixels across a 512-pixel, 350 mm field shown about 740 pixels high: about 95 mm.
    const length = page.getByTestId('measurement').filter({ hasText: '测距' });
    await length.waitFor();
    const mm = async () => Number(/测距 ([\d.]+) mm/.exec((await length.textContent()) ?? '')?.[1]);
    await expect.poll(mm).toBeGreaterThan(85);
    await expect.poll(mm).toBeLessThan(105);
    await screenshot(page, 'viewer-measure');

    // Key image (F1) reaches the report's image list.
    await page.keyboard.press('F1');
    await page.getByText(/已发送到报告/).waitFor();
    const token = (await apiLogin('senior')).accessToken;
    const images = await api<{ images: { id: string; url: string; contentType: string }[] }>(
      `/yyp/api/v1/reports/${current!.id}/images`,
      token,
    );
    expect(images.status).toBe(200);
    expect(images.body.images.length).toBeGreaterThanOrEqual(1);
    const png = await fetch(new URL(images.body.images[0]!.url, page.url()));
    expect(png.status).toBe(200);
    expect(
      Buffer.from(await png.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');

    // Compare with last year's CT: side by side, scrolling linked.
    await page.getByTestId('compare').click();
    await page.getByRole('menuitem', { name: /CT/ }).first().click();
    await page.getByTestId('prior-study').waitFor();
    await page.getByTestId('instance-1').filter({ hasText: '/60)' }).waitFor();
    await expect.poll(async () => (await canvasStats(page, 1)).lit, { timeout: 20_000 }).toBeGreaterThan(5_000);
    const left = await page.getByTestId('instance-0').textContent();
    const right = await page.getByTestId('instance-1').textContent();
    await element.hover();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.getByTestId('instance-0').textContent()).not.toBe(left);
    await expect.poll(() => page.getByTestId('instance-1').textContent()).not.toBe(right);
    await screenshot(page, 'viewer-compare');
    await context.close();
  });

  it('opens a share path without an account, masked and read-only; an expired or forged path opens nothing', async () => {
    const [current] = (await waitForZhangWeiCts()).sort((a, b) => b.studyDate.localeCompare(a.studyDate));
    const token = (await apiLogin('doctor')).accessToken;
    const share = await api<{ url: string; openpath: string }>(`/yyp/api/v1/viewers/${current!.id}/share-path`, token, {
      method: 'POST',
      body: JSON.stringify({}),
    });
    expect(share.status).toBe(200);

    ({ context, page } = await openPage(browser));
    await page.goto(share.body.url);
    await page.getByTestId('instance-0').filter({ hasText: '(1/120)' }).waitFor();
    await expect.poll(async () => (await canvasStats(page)).lit, { timeout: 20_000 }).toBeGreaterThan(10_000);
    await expect(page.getByTestId('overlay-tl-0').textContent()).resolves.not.toContain('张伟');
    // Read-only: no key images, no priors.
    expect(await page.getByTestId('key-image').count()).toBe(0);
    expect(await page.getByTestId('compare').count()).toBe(0);
    await screenshot(page, 'viewer-share');

    // The share path reads nothing but its own study's viewer calls.
    const viaShare = await fetch(`${new URL(page.url()).origin}/yyp/api/v1/exams/page-query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-yyp-viewer': share.body.openpath },
      body: JSON.stringify({ filters: [] }),
    });
    expect(viaShare.status).toBe(401);

    const forged = `${share.body.openpath.slice(0, -4)}AAAA`;
    await page.goto(`/viewer/${forged}`);
    await page.getByText('此影像链接已过期').waitFor();
    await screenshot(page, 'viewer-link-invalid');
    await context.close();
  });

  it('decodes JPEG baseline, JPEG lossless, JPEG-LS, JPEG 2000 and RLE in the browser', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-e2e-ts-'));
    const tech = (await apiLogin('tech')).accessToken;
    const senior = (await apiLogin('senior')).accessToken;
    // The technician uploads into 放射科, the one organization it may upload to.
    const uploadable = await api<{ id: string }[]>('/yyp/api/v1/buckets/uploadable', tech);
    const bucketId = uploadable.body[0]!.id;

    /** A generated study, converted file by file with `convert` (null: stored as generated), sent by STOW-RS. */
    const store = async (
      name: string,
      options: StudyOptions,
      convert: ((i: string, o: string) => Promise<unknown>) | null,
    ) => {
      const study = generateStudy({ ...options, patientId: `E2E-TS-${name}`, patientName: `TS^${name}` });
      const files = await writeStudy(path.join(dir, name, 'in'), study);
      const parts: Buffer[] = [];
      for (const file of files) {
        const out = path.join(dir, name, path.basename(file));
        if (convert) await convert(file, out);
        parts.push(fs.readFileSync(convert ? out : file));
      }
      await stowInstances(tech, bucketId, parts);
      const exams = await api<{ exams: { id: string; patientId: string }[] }>('/yyp/api/v1/exams/page-query', senior, {
        method: 'POST',
        body: JSON.stringify({ filters: [{ field: 'patientId', operator: 'eq', values: [`E2E-TS-${name}`] }] }),
      });
      const exam = exams.body.exams[0]!;
      return (await api<{ url: string }>(`/yyp/api/v1/viewers/${exam.id}/path`, senior, { method: 'POST', body: '{}' }))
        .body.url;
    };

    /** Opens a viewer path and answers the first image's canvas fingerprint once it is drawn. */
    const shown = async (url: string, frames: number) => {
      await page.goto(url);
      await page
        .getByTestId('instance-0')
        .filter({ hasText: `(1/${frames})` })
        .waitFor();
      await expect.poll(async () => (await canvasStats(page)).lit, { timeout: 20_000 }).toBeGreaterThan(2_000);
      await page.waitForTimeout(300);
      return canvasStats(page);
    };

    ({ context, page } = await openPage(browser));
    await page.setViewportSize({ width: 1000, height: 700 });
    const ct: StudyOptions = { modality: 'CT', instancesPerSeries: 2, rows: 128, columns: 128 };
    const reference = await shown(await store('raw', ct, null), 2);
    // Lossless codecs must give the very pixels of the uncompressed study.
    const lossless: [string, (i: string, o: string) => Promise<unknown>][] = [
      ['jpegll', (i, o) => run('dcmcjpeg', ['+e1', i, o])],
      ['jpegls', (i, o) => run('dcmcjpls', [i, o])],
      ['j2k', (i, o) => run('gdcmconv', ['--j2k', i, o])],
      ['rle', (i, o) => run('dcmcrle', [i, o])],
    ];
    for (const [name, convert] of lossless) {
      const stats = await shown(await store(name, ct, convert), 2);
      expect(stats, name).toEqual(reference);
    }
    await screenshot(page, 'viewer-rle');
    // JPEG baseline is lossy and 8-bit: an ultrasound clip (RGB), decoded and playable.
    const us: StudyOptions = { modality: 'US', frames: 6, rows: 96, columns: 128, usPhotometric: 'RGB' };
    const clip = await shown(await store('baseline', us, (i, o) => run('dcmcjpeg', ['+eb', i, o])), 6);
    expect(clip.lit).toBeGreaterThan(2_000);
    await page.getByTestId('cine').click();
    await expect.poll(() => page.getByTestId('instance-0').textContent(), { timeout: 10_000 }).not.toContain('(1/6)');
    await page.getByTestId('cine').click();
    await screenshot(page, 'viewer-us-baseline');
    await context.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
