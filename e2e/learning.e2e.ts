import type { LearningList } from '@yyp/contracts';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin, browserPerFile, loginViaUi, PLATFORM_ADMIN_LANDING, screenshot } from './support.js';

// Issue 27 "Learning videos": the platform admin uploads a small WebM made in the browser itself
// (MediaRecorder on a canvas: no ffmpeg on the machine, no fixture file), a doctor opens Learning
// videos from the navbar and plays it (the server answers the <video> element's Range requests
// with 206), and a visitor plays it from its public link. The video is deleted afterwards.

let page: Page;
const browser = browserPerFile((c) => ({ page } = c));

const TITLE = `阅片入门 ${Date.now()}`;
let adminToken: string;

beforeAll(async () => {
  adminToken = (await apiLogin('admin')).accessToken;
});

afterAll(async () => {
  const list = await api<LearningList>('/yyp/api/v1/learnings/list?limit=100', adminToken);
  for (const item of list.body.items.filter((i) => i.title === TITLE)) {
    await api(`/yyp/api/v1/learnings/${item.id}`, adminToken, { method: 'DELETE' });
  }
});

/** A 2-second VP8 WebM of a moving square, recorded by Chromium from a canvas. */
async function recordWebm(on: Page): Promise<Buffer> {
  const bytes = await on.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 160;
    canvas.height = 120;
    const ctx = canvas.getContext('2d')!;
    const stream = canvas.captureStream(15);
    const recorder = new MediaRecorder(stream, { mimeType: 'video/webm;codecs=vp8' });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (e) => chunks.push(e.data);
    const done = new Promise((resolve) => (recorder.onstop = resolve));
    recorder.start(250);
    const started = performance.now();
    await new Promise<void>((resolve) => {
      const draw = () => {
        const t = performance.now() - started;
        ctx.fillStyle = '#123';
        ctx.fillRect(0, 0, 160, 120);
        ctx.fillStyle = '#4caf50';
        ctx.fillRect((t / 20) % 140, 40, 20, 40);
        if (t < 2000) requestAnimationFrame(draw);
        else resolve();
      };
      draw();
    });
    recorder.stop();
    await done;
    return [...new Uint8Array(await new Blob(chunks, { type: 'video/webm' }).arrayBuffer())];
  });
  return Buffer.from(bytes);
}

/** Plays the page's video (muted, so autoplay rules allow it) and waits until its time advances. */
async function playsOn(on: Page, label: string): Promise<{ readyState: number; currentTime: number }> {
  const video = on.getByLabel(label);
  await video.waitFor();
  await video.evaluate(async (el: HTMLVideoElement) => {
    el.muted = true;
    await el.play();
  });
  await on.waitForFunction(
    (name) => {
      const el = document.querySelector<HTMLVideoElement>(`video[aria-label="${name}"]`);
      return el !== null && el.readyState >= 2 && el.currentTime > 0.2;
    },
    label,
    { timeout: 15_000 },
  );
  return video.evaluate((el: HTMLVideoElement) => ({ readyState: el.readyState, currentTime: el.currentTime }));
}

describe('learning videos', () => {
  let learningId = '';

  it('the platform admin uploads a WebM on /settings/admin', async () => {
    await loginViaUi(page, 'admin', undefined, PLATFORM_ADMIN_LANDING);
    const webm = await recordWebm(page);
    expect(webm.subarray(0, 4)).toEqual(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));
    await page.getByRole('tab', { name: '学习视频' }).click();
    await page.locator('input[type=file]').setInputFiles({ name: 'intro.webm', mimeType: 'video/webm', buffer: webm });
    await page.getByLabel('标题').fill(TITLE);
    await page.getByLabel('简介').fill('报告工作站的基本用法：检索、阅片、书写报告。');
    await page.getByRole('button', { name: /上传视频/ }).click();
    await page.getByText('视频已上传。').waitFor();
    await page.getByRole('link', { name: TITLE }).waitFor();
    await screenshot(page, 'learning-admin');
    const list = await api<LearningList>('/yyp/api/v1/learnings/list?limit=100', adminToken);
    const stored = list.body.items.find((i) => i.title === TITLE);
    expect(stored).toMatchObject({ contentType: 'video/webm', published: true, size: webm.length });
    learningId = stored!.id;
  });

  it('a doctor opens Learning videos from the navbar and plays it, streamed with 206', async () => {
    expect(learningId).not.toBe('');
    await loginViaUi(page, 'doctor');
    const partial: Response[] = [];
    page.on('response', (res) => {
      if (res.url().includes(`/learnings/${learningId}/video`) && res.status() === 206) partial.push(res);
    });
    await page.getByRole('navigation').getByRole('link', { name: '学习视频' }).click();
    await page.getByRole('heading', { name: '学习视频' }).waitFor();
    await page.getByRole('link', { name: `观看: ${TITLE}` }).click();
    await page.waitForURL(`**/learning/${learningId}`);
    const state = await playsOn(page, `视频：${TITLE}`);
    expect(state.readyState).toBeGreaterThanOrEqual(2);
    expect(state.currentTime).toBeGreaterThan(0.2);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial[0]!.headers()['content-range']).toMatch(/^bytes \d+-\d+\/\d+$/);
    await screenshot(page, 'learning-player');
  });

  it('a visitor plays it from its public link', async () => {
    expect(learningId).not.toBe('');
    await browser.reopen();
    await page.goto(`/learning/${learningId}`);
    await page.getByRole('link', { name: '登录' }).waitFor();
    const state = await playsOn(page, `视频：${TITLE}`);
    expect(state.currentTime).toBeGreaterThan(0.2);
    await screenshot(page, 'learning-visitor');
  });
});
