import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_KEY, launchBrowser, loginViaUi, screenshot } from './support.js';
import { callKeyShownWithin1s, passAndReturn } from './support-calling.js';
import {
  instanceApi,
  instanceLogin,
  startTwoInstances,
  type Instance,
  type TwoInstances,
} from './support-instances.js';

/**
 * Issue 23's "Done when", tried as a new user would, across two server instances on one
 * PostgreSQL database: the registrar marks 王晓东 arrived on instance A; the technician of CT room
 * 1 (instance A, the same browser context) presses the call key; the waiting-room TV, another
 * browser context connected to instance B, shows "3 号 王*东 → CT 1" within a second and fetches
 * its Mandarin announcement; the patient who does not come is passed to the missed list and
 * returned later.
 */
let two: TwoInstances | undefined;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await two?.stop();
});

interface QueueTypeRow {
  id: string;
  modality: string;
}

/** The hospital's today (UTC+8), as the server dates scheduled exams and queues. */
const hospitalToday = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);

/** The desk registers a walk-in for a chest CT today on `instance`; arrived at once when `arrive`. */
async function register(instance: Instance, token: string, bucketId: string, name: string, arrive: boolean) {
  const created = await instanceApi(instance, token, 'registry', {
    bucketId,
    patient: { name, gender: 'M' },
    exams: [{ modality: 'CT', bodyPart: '胸部', studyDesc: '胸部CT平扫', scheduledDate: hospitalToday() }],
    arrive,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
}

/** The demo radiology with a CT queue announced as "CT 1", and a screen token for its waiting room. */
async function ctQueue(a: Instance, registrar: string) {
  const buckets = await instanceApi<{ id: string }[]>(a, registrar, 'calling-buckets');
  const bucketId = buckets.body[0]!.id;
  const types = await instanceApi<QueueTypeRow[]>(a, registrar, `buckets/${bucketId}/queue-types`);
  let ct = types.body.find((t) => t.modality === 'CT');
  if (!ct) {
    const added = await instanceApi<QueueTypeRow>(a, registrar, 'queue-types/add', {
      bucketId,
      displayName: 'CT',
      modality: 'CT',
      roomName: 'CT 1',
      urgentFirst: true,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    ct = added.body;
  }
  const issued = await instanceApi<{ token: string }>(a, registrar, `buckets/${bucketId}/screen-tokens`, {
    label: '候诊大厅',
  });
  expect(issued.status, JSON.stringify(issued.body)).toBe(201);
  return { bucketId, queueTypeId: ct.id, screenToken: issued.body.token };
}

describe('patient calling across two instances', () => {
  it('arrival and call on instance A; the TV on instance B shows "3 号 王*东 → CT 1" within 1 s and says it; pass and return', async () => {
    // Started in the test, so a PostgreSQL that is not reachable fails it (it is never skipped).
    two = await startTwoInstances();
    const { a, b } = two;
    const name = '王晓东';
    const registrar = await instanceLogin(a, 'registrar');
    const { bucketId, queueTypeId, screenToken } = await ctQueue(a, registrar);
    // The morning's first two patients, called and examined from instance B: 王晓东 will be number 3.
    const techOnB = await instanceLogin(b, 'tech');
    for (const earlier of ['李大明', '张小红']) {
      await register(a, registrar, bucketId, earlier, true);
      const called = await instanceApi<{ queueExam: { id: string } | null }>(b, techOnB, 'queue-exams/call-next', {
        queueTypeId,
      });
      expect(called.status).toBe(200);
      const done = await instanceApi(b, techOnB, `queue-exams/${called.body.queueExam!.id}/action`, { action: 'done' });
      expect(done.status).toBe(200);
    }
    await register(a, registrar, bucketId, name, false);

    let desk: BrowserContext | undefined;
    const tv = await browser.newContext({ baseURL: b.base, viewport: { width: 1920, height: 1080 }, locale: 'zh-CN' });
    try {
      // The waiting-room TV on instance B: screen token in the address, no login, live socket open.
      const screen = await tv.newPage();
      const spoken: { text: string; status: number; type: string }[] = [];
      screen.on('response', (r) => {
        if (!r.url().endsWith('/yyp/api/text2speech')) return;
        const text = (JSON.parse(r.request().postData() ?? '{}') as { text?: string }).text ?? '';
        spoken.push({ text, status: r.status(), type: r.headers()['content-type'] ?? '' });
      });
      await screen.goto(`/calling/${bucketId}/screen-show?token=${encodeURIComponent(screenToken)}`);
      await screen.getByText('点击任意位置开启声音').click();
      await screen.locator('.yyp-screen__status--online').waitFor();

      // The registrar at the desk of instance A marks the patient arrived.
      desk = await browser.newContext({ baseURL: a.base, viewport: { width: 1366, height: 820 }, locale: 'zh-CN' });
      const page: Page = await desk.newPage();
      page.setDefaultTimeout(15_000);
      await loginViaUi(page, 'registrar');
      await page.getByRole('navigation').getByRole('link', { name: '登记', exact: true }).click();
      await page.waitForURL('**/registry');
      const row = page.getByRole('row').filter({ hasText: name });
      await row.getByRole('button', { name: '到检', exact: true }).click();
      await row.getByText('已到检').waitFor();
      // Instance B's screen hears of the check-in (number 3 in the next patients).
      await screen.locator('.yyp-screen__next').getByText('王*东').waitFor({ timeout: 2_000 });

      // The technician of CT room 1, in the same browser context, presses the call key.
      await page.evaluate((key) => localStorage.removeItem(key), ACCESS_TOKEN_KEY);
      await loginViaUi(page, 'tech');
      await page.getByRole('navigation').getByRole('link', { name: '叫号', exact: true }).click();
      await page.waitForURL('**/calling');
      const waiting = page.locator('.yyp-calling__list--waiting');
      await waiting.getByRole('row').filter({ hasText: name }).waitFor();
      const main = await callKeyShownWithin1s(page, screen, '王*东');
      await expect(main.textContent()).resolves.toMatch(/^3 号王\*东→ CT 1$/);
      // Said aloud: the screen asked instance B for the announcement's audio, in Mandarin (chs).
      await expect.poll(() => spoken.find((s) => s.text.includes('3 号')), { timeout: 5_000 }).toBeTruthy();
      expect(spoken.find((s) => s.text.includes('3 号'))).toMatchObject({
        text: '请 3 号 王*东 到 CT 1 检查',
        status: 200,
        type: expect.stringMatching(/^audio\/wav/),
      });
      await screenshot(screen, 'calling-instances-screen-1920');
      await page.getByText('已呼叫 3 号 王晓东 → CT 1').waitFor();
      // The desk follows the queue live on instance A too (not the 2 s polling fallback).
      await page.getByText('实时', { exact: true }).waitFor({ timeout: 5_000 });
      await screenshot(page, 'calling-instances-desk');

      // The patient does not come: passed to the missed list, on the desk and on B's screen; back
      // later, returned to the queue, keeping number 3.
      await passAndReturn(page, screen, name, '王*东', () => screenshot(screen, 'calling-instances-screen-missed'));
      await expect(screen.locator('.yyp-screen__next').filter({ hasText: '王*东' }).textContent()).resolves.toContain(
        '3',
      );
    } finally {
      await desk?.close();
      await tv.close();
    }
  }, 180_000);
});
