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
  examIdsOfPatient,
  launchBrowser,
  openPage,
  screenshot,
  shotIfFailed,
  stowInstances,
  viewerPath,
} from './support.js';
import { canvasStats } from './support-canvas.js';

const run = promisify(execFile);

/**
 * Issue 20 item 12: a CT an old modality sent in Explicit VR Big Endian looks in the viewer exactly
 * as its little-endian copy does (the server serves its frames in little endian, as Orthanc does).
 */

let browser: Browser;
let context: BrowserContext | undefined;
let page: Page | undefined;
let dir: string;

beforeAll(async () => {
  browser = await launchBrowser();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-e2e-be-'));
});

afterAll(async () => {
  await browser?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

afterEach(async ({ task }) => {
  await shotIfFailed(task, page);
});

describe('big-endian images', () => {
  it('shows a big-endian CT as its little-endian copy', async () => {
    const tech = (await apiLogin('tech')).accessToken;
    const senior = (await apiLogin('senior')).accessToken;
    const uploadable = await api<{ id: string }[]>('/yyp/api/v1/buckets/uploadable', tech);
    const bucketId = uploadable.body[0]!.id;

    /** The same generated CT (its pixels are deterministic), stored as generated or rewritten by DCMTK. */
    const store = async (name: string, bigEndian: boolean) => {
      const options: StudyOptions = {
        modality: 'CT',
        instancesPerSeries: 2,
        rows: 256,
        columns: 256,
        patientId: `E2E-BE-${name}`,
        patientName: `ENDIAN^${name}`,
      };
      const files = await writeStudy(path.join(dir, name, 'in'), generateStudy(options));
      const parts: Buffer[] = [];
      for (const file of files) {
        const out = path.join(dir, name, path.basename(file));
        if (bigEndian) await run('dcmconv', ['+tb', file, out]);
        parts.push(fs.readFileSync(bigEndian ? out : file));
      }
      if (bigEndian) {
        const first = path.join(dir, name, path.basename(files[0]!));
        const { stdout } = await run('dcmdump', ['-M', '+P', 'TransferSyntaxUID', first]);
        expect(stdout).toContain('BigEndianExplicit');
      }
      await stowInstances(tech, bucketId, parts);
      const [examId] = await examIdsOfPatient(senior, `E2E-BE-${name}`);
      return viewerPath(senior, examId!);
    };

    /** Opens a viewer path and answers the first image's canvas fingerprint once it is drawn. */
    const shown = async (p: Page, url: string) => {
      await p.goto(url);
      await p.getByTestId('instance-0').filter({ hasText: '(1/2)' }).waitFor();
      await expect.poll(async () => (await canvasStats(p)).lit, { timeout: 20_000 }).toBeGreaterThan(2_000);
      await p.waitForTimeout(300);
      return canvasStats(p);
    };

    ({ context, page } = await openPage(browser));
    await page.setViewportSize({ width: 1000, height: 700 });
    const little = await shown(page, await store('le', false));
    await expect(page.getByTestId('wl-0').textContent()).resolves.toBe('W: 400 L: 40');
    await screenshot(page, 'big-endian-le');
    const big = await shown(page, await store('be', true));
    await expect(page.getByTestId('wl-0').textContent()).resolves.toBe('W: 400 L: 40');
    await screenshot(page, 'big-endian-be');
    expect(big).toEqual(little);
    await context.close();
  });
});
