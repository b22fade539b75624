import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, loginViaUi, openPage, screenshot, shotIfFailed, step } from './support.js';
import { cancelOpenConsultations, scheduledDemoConsultation } from './consultation-support.js';

/**
 * Issue 25 "Shared viewing" (Done when: "both look at the same slice as the expert scrolls"): the
 * requester (李医生 of 仁和's radiology) and the expert (孙专家, XH-TELE) each open the bound CT from
 * the consultation's page (the viewer joins the consultation's room: ?consultation=<id>; the
 * expert reads the shared copy, another exam with the same UIDs). The expert presents; the
 * requester's viewer follows to the same series, slice and window, and shows the expert's
 * measurement; a manual scroll leaves the follow mode, Follow again catches up.
 */
let browser: Browser;
const contexts: BrowserContext[] = [];
const viewers: { who: string; page: Page }[] = [];
let consultationId = '';

/** Signs in, opens the consultation and its bound CT in the viewer (a window of its own), first image shown. */
async function openViewer(username: string, who: string): Promise<Page> {
  const { context, page } = await openPage(browser);
  contexts.push(context);
  await loginViaUi(page, username);
  step(`${who} opens the consultation and its CT`);
  await page.goto(`/consultations/${consultationId}`);
  const [viewer] = await Promise.all([
    context.waitForEvent('page'),
    page
      .getByRole('button', { name: /查看影像/ })
      .first()
      .click(),
  ]);
  viewer.setDefaultTimeout(20_000);
  viewers.push({ who, page: viewer });
  await viewer.setViewportSize({ width: 1280, height: 800 });
  expect(new URL(viewer.url()).searchParams.get('consultation')).toBe(consultationId);
  await viewer.locator('[data-testid="viewport-0"][data-stack-ready="true"]').waitFor();
  await viewer.getByTestId('instance-0').filter({ hasText: '(1/' }).waitFor();
  // the room is joined: Present can be pressed
  await expect.poll(() => viewer.getByTestId('follow-present').isEnabled(), { timeout: 20_000 }).toBe(true);
  return viewer;
}

const imageIndex = (p: Page) => p.getByTestId('viewport-0').getAttribute('data-image-index');
const seriesUid = (p: Page) => p.getByTestId('viewport-0').getAttribute('data-series-uid');
const windowText = (p: Page) => p.getByTestId('wl-0').textContent();
const bannerState = (p: Page) =>
  p
    .getByTestId('follow-banner')
    .getAttribute('data-state', { timeout: 1_000 })
    .catch(() => null);

beforeAll(async () => {
  browser = await launchBrowser();
  consultationId = await scheduledDemoConsultation('张伟 胸部CT 共同阅片', '右肺结节性质待定，请专家一同阅片');
}, 180_000);

afterEach(async ({ task }) => {
  for (const v of viewers) await shotIfFailed(task, v.page, v.who);
});

afterAll(async () => {
  for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
  await browser?.close();
  await cancelOpenConsultations([consultationId]);
});

describe('consultation shared viewing', () => {
  it('the requester’s viewer follows the presenting expert to the same slice, window and marks', async () => {
    const doctor = await openViewer('doctor', 'doctor');
    const expert = await openViewer('expert', 'expert');

    step('the expert presents');
    await expert.getByTestId('follow-present').click();
    await expect.poll(() => bannerState(expert)).toBe('presenting');
    await expect.poll(() => bannerState(doctor)).toBe('following');
    await expect(doctor.getByTestId('follow-banner').textContent()).resolves.toContain('正在跟随 孙专家 的演示');

    step('the expert scrolls to another slice and sets the lung window');
    await expert.getByTestId('viewport-0').hover();
    for (let i = 0; i < 12; i++) await expert.keyboard.press('ArrowDown');
    await expect.poll(() => imageIndex(expert)).toBe('12');
    await expert.keyboard.press('1');
    await expect.poll(() => windowText(expert)).not.toBe('W: 400 L: 40');
    const expertWindow = await windowText(expert);

    step('the requester shows the same series, slice and window');
    await expect.poll(() => imageIndex(doctor), { timeout: 10_000 }).toBe('12');
    expect(await seriesUid(doctor)).toBe(await seriesUid(expert));
    await expect(doctor.getByTestId('instance-0').textContent()).resolves.toBe(
      await expert.getByTestId('instance-0').textContent(),
    );
    await expect.poll(() => windowText(doctor), { timeout: 10_000 }).toBe(expertWindow);

    step('the expert measures a length; it shows in the requester’s viewer');
    await expert.getByTestId('tool-Length').click();
    const box = (await expert.getByTestId('viewport-0').boundingBox())!;
    await expert.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.5);
    await expert.mouse.down();
    await expert.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5, { steps: 5 });
    await expert.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5, { steps: 5 });
    await expert.mouse.up();
    await expect.poll(() => expert.getByTestId('measurement').count()).toBe(1);
    await expect.poll(() => doctor.getByTestId('measurement').count(), { timeout: 10_000 }).toBe(1);
    const mm = (p: Page) => p.getByTestId('measurement').first().textContent();
    // both sides read again each time: the expert's own value settles when its drag ends
    const both = async () => {
      const [d, e] = await Promise.all([mm(doctor), mm(expert)]);
      return d === e ? 'same' : `requester ${d} / expert ${e}`;
    };
    await expect.poll(both).toBe('same');
    await screenshot(expert, 'consultation-follow-expert');
    await screenshot(doctor, 'consultation-follow-requester');

    step('a scroll of the requester leaves the follow mode');
    await doctor.getByTestId('viewport-0').hover();
    await doctor.keyboard.press('ArrowUp');
    await expect.poll(() => bannerState(doctor)).toBe('paused');
    await expect.poll(() => imageIndex(doctor)).toBe('11');
    await expert.getByTestId('viewport-0').hover();
    for (let i = 0; i < 8; i++) await expert.keyboard.press('ArrowDown');
    await expect.poll(() => imageIndex(expert)).toBe('20');
    await doctor.waitForTimeout(500);
    expect(await imageIndex(doctor)).toBe('11');

    step('Follow again catches up with the expert');
    await doctor.getByTestId('follow-banner-action').click();
    await expect.poll(() => bannerState(doctor)).toBe('following');
    await expect.poll(() => imageIndex(doctor), { timeout: 10_000 }).toBe('20');

    step('the expert stops presenting');
    await expert.getByTestId('follow-present').click();
    await expect.poll(() => bannerState(doctor)).toBe(null);
  }, 180_000);
});
