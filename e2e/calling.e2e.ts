import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { baseUrl, browserPerFile, loginViaUi, screenshot } from './support.js';
import {
  callKeyShownWithin1s,
  ctQueueWithScreen,
  openQueue,
  passAndReturn,
  registerArrived,
} from './support-calling.js';

/**
 * Issue 23 in the browser: the registrar's arrival checks 王晓东 into the CT queue; the technician
 * on /calling presses the call key (F2); the waiting-room screen, another browser context opened
 * with a screen token and no login, shows "N 号 王*东 → CT 1" within a second and fetches the
 * announcement audio; a patient who does not come is passed to the missed list and returned.
 */
let page: Page;
let browser: Browser;

browserPerFile((current) => ({ page, browser } = current));

describe('patient calling', () => {
  it('calls the next patient to CT 1; the screen shows the masked name within 1 s; pass and return', async () => {
    const name = '王晓东';
    const setup = await ctQueueWithScreen('候诊大厅一号屏');
    await registerArrived(setup.registrar, setup.bucketId, name);
    await expect
      .poll(async () => (await openQueue(setup.registrar, setup.bucketId, setup.queueTypeId)).map((r) => r.status))
      .toEqual(['waiting']);

    // The waiting-room TV: its own browser context, no login, the token once in the address.
    const tv = await browser.newContext({
      baseURL: baseUrl(),
      viewport: { width: 1920, height: 1080 },
      locale: 'zh-CN',
    });
    try {
      const screen = await tv.newPage();
      await screen.goto(`/calling/${setup.bucketId}/screen-show?token=${encodeURIComponent(setup.screenToken)}`);
      await screen.getByText('点击任意位置开启声音').click();
      await screen.getByText('等待叫号').waitFor();
      expect(new URL(screen.url()).search).toBe('');
      await screen.locator('.yyp-screen__next').getByText('王*东').waitFor();
      // Live: the screen's socket is open (not the polling fallback).
      await screen.locator('.yyp-screen__status--online').waitFor();

      // The technician of CT room 1.
      // The announcement plays on both (no refusal by the page's Content Security Policy, no failure).
      const errors: string[] = [];
      for (const p of [page, screen]) p.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await loginViaUi(page, 'tech');
      await page.getByRole('navigation').getByRole('link', { name: '叫号', exact: true }).click();
      await page.waitForURL('**/calling');
      await page.getByRole('button', { name: '叫下一位（F2）' }).waitFor();
      const waiting = page.locator('.yyp-calling__list--waiting');
      await waiting.getByRole('row').filter({ hasText: name }).waitFor();
      // The demo history's morning CT lists give the queue a pace: the room's predicted wait and the patient's.
      await page
        .locator('.yyp-calling__waits')
        .getByText(/^CT 1 · 预计等候约 \d+ 分钟$/)
        .waitFor();
      await waiting
        .getByRole('row')
        .filter({ hasText: name })
        .getByText(/^约 \d+ 分钟$/)
        .waitFor();
      await screenshot(page, 'calling-desk-wait');

      const spoken = screen.waitForResponse((r) => r.url().endsWith('/yyp/api/text2speech'));
      const main = await callKeyShownWithin1s(page, screen, '王*东');
      await expect(main.textContent()).resolves.toMatch(/^\d+ 号王\*东→ CT 1$/);
      // The screen says it: it fetched the announcement's audio with its screen token.
      const audio = await spoken;
      expect(audio.status()).toBe(200);
      expect(audio.headers()['content-type']).toMatch(/^audio\//);
      await page.getByText(/已呼叫 \d+ 号 王晓东 → CT 1/).waitFor();
      await screenshot(screen, 'calling-screen-1920');
      expect(errors).toEqual([]);
      await expect(page.getByText('语音播放失败。').count()).resolves.toBe(0);
      await screen.setViewportSize({ width: 1280, height: 720 });
      await screenshot(screen, 'calling-screen-1280');

      // The patient does not come: passed to the missed list, on both screens; back later,
      // returned to the queue, keeping the number.
      await passAndReturn(page, screen, name, '王*东', () => screenshot(page, 'calling-desk'));
      await screen.locator('.yyp-screen__next').getByText('王*东').waitFor();
    } finally {
      await tv.close();
    }
  });
});
