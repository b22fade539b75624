import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, screenshot, shotIfFailed, step } from './support.js';
import { cancelOpenConsultations, scheduledDemoConsultation } from './consultation-support.js';

/**
 * Issue 25 "Video": the requester (doctor, 仁和 radiology) and the expert (孙专家, XH-TELE) open the
 * same scheduled consultation in two browser contexts with Chromium's fake camera and microphone,
 * press Join video, and each receives the other's video: frames decoded (getStats framesDecoded).
 * Then again with relay only (iceTransportPolicy 'relay'): both go through coturn on loopback, started
 * here with the secret the server was given (globalSetup), and the pair in use is a relay pair.
 * The consultation is made through the API as a user would: the group admin names XH-TELE a
 * consultation organization, the doctor requests it on 张伟's CT with the expert, the expert accepts.
 */
let browser: Browser;
let turn: ChildProcess | null = null;
let turnLog = '';
const contexts: BrowserContext[] = [];
const pages: Page[] = [];
let consultationId = '';

interface PcStats {
  framesDecoded: number;
  localType: string | null;
  remoteType: string | null;
}

/** Records every RTCPeerConnection the page makes (and, for the relay run, forces relay only). */
function instrument(relayOnly: boolean): string {
  return `(() => {
    const Original = window.RTCPeerConnection;
    window.__pcs = [];
    class Recorded extends Original {
      constructor(config) {
        super({ ...(config || {}), ...(${relayOnly} ? { iceTransportPolicy: 'relay' } : {}) });
        window.__pcs.push(this);
      }
    }
    window.RTCPeerConnection = Recorded;
  })();`;
}

/** Per open peer connection: video frames decoded and the candidate types of the pair in use. */
function peerStats(page: Page): Promise<PcStats[]> {
  return page.evaluate(async () => {
    const pcs = ((window as unknown as { __pcs?: RTCPeerConnection[] }).__pcs ?? []).filter(
      (pc) => pc.connectionState !== 'closed',
    );
    const out: { framesDecoded: number; localType: string | null; remoteType: string | null }[] = [];
    for (const pc of pcs) {
      const stats = await pc.getStats();
      let framesDecoded = 0;
      let pairId: string | undefined;
      const byId = new Map<string, Record<string, unknown>>();
      stats.forEach((s: Record<string, unknown>) => {
        byId.set(s.id as string, s);
        if (s.type === 'inbound-rtp' && s.kind === 'video') framesDecoded += Number(s.framesDecoded ?? 0);
        if (s.type === 'transport' && s.selectedCandidatePairId) pairId = s.selectedCandidatePairId as string;
      });
      if (!pairId) {
        stats.forEach((s: Record<string, unknown>) => {
          if (s.type === 'candidate-pair' && s.state === 'succeeded' && s.nominated) pairId = s.id as string;
        });
      }
      const pair = pairId ? byId.get(pairId) : undefined;
      const local = pair ? byId.get(pair.localCandidateId as string) : undefined;
      const remote = pair ? byId.get(pair.remoteCandidateId as string) : undefined;
      out.push({
        framesDecoded,
        localType: (local?.candidateType as string | undefined) ?? null,
        remoteType: (remote?.candidateType as string | undefined) ?? null,
      });
    }
    return out;
  });
}

async function waitForFrames(page: Page, who: string): Promise<PcStats> {
  const deadline = Date.now() + 30_000;
  let last: PcStats[] = [];
  while (Date.now() < deadline) {
    last = await peerStats(page);
    const good = last.find((s) => s.framesDecoded > 0);
    if (good) return good;
    await page.waitForTimeout(500);
  }
  throw new Error(`${who} decoded no remote video within 30 s: ${JSON.stringify(last)}`);
}

/** Starts coturn on loopback with the e2e secret, as docs/video.md describes for a hospital. */
async function startTurn(): Promise<void> {
  const bin = ['/usr/bin/turnserver', '/usr/sbin/turnserver'].find((p) => fs.existsSync(p));
  if (!bin) throw new Error('coturn (turnserver) is missing: scripts/install-test-deps.sh installs it');
  const port = inject('turnPort');
  turn = spawn(
    bin,
    [
      '-n',
      '--listening-ip=127.0.0.1',
      '--relay-ip=127.0.0.1',
      `--listening-port=${port}`,
      '--min-port=49160',
      '--max-port=49200',
      '--use-auth-secret',
      `--static-auth-secret=${inject('turnSecret')}`,
      '--realm=yyp.test',
      '--allow-loopback-peers',
      '--no-tls',
      '--no-dtls',
      '--no-cli',
      '--fingerprint',
      '--log-file=stdout',
      '--simple-log',
      `--pidfile=${os.tmpdir()}/yyp-e2e-turnserver-${process.pid}.pid`,
      `--userdb=${os.tmpdir()}/yyp-e2e-turndb-${process.pid}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const collect = (chunk: Buffer) => (turnLog = (turnLog + chunk.toString()).slice(-20_000));
  turn.stdout?.on('data', collect);
  turn.stderr?.on('data', collect);
  const deadline = Date.now() + 10_000;
  while (!/listener opened on|Total General servers/i.test(turnLog)) {
    if (turn.exitCode !== null || Date.now() > deadline) throw new Error(`turnserver did not start:\n${turnLog}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function joinRoom(username: string, relayOnly: boolean): Promise<Page> {
  const context = await browser.newContext({
    baseURL: `${inject('baseUrl')}`,
    viewport: { width: 1366, height: 900 },
    locale: 'zh-CN',
    permissions: ['camera', 'microphone'],
  });
  context.setDefaultTimeout(15_000);
  contexts.push(context);
  await context.addInitScript(instrument(relayOnly));
  const page = await context.newPage();
  pages.push(page);
  await page.goto('/login');
  await page.getByPlaceholder('用户名').fill(username);
  await page.getByPlaceholder('密码').fill('Yyp@2026');
  await page.getByPlaceholder('密码').press('Enter');
  await page.waitForURL('**/studies');
  await page.goto(`/consultations/${consultationId}`);
  await page.getByRole('button', { name: /加入视频/ }).click();
  await page.getByRole('button', { name: /离开/ }).waitFor();
  return page;
}

async function closeAll(): Promise<void> {
  for (const page of pages.splice(0)) {
    await page
      .getByRole('button', { name: /离开/ })
      .click({ timeout: 2000 })
      .catch(() => undefined);
  }
  for (const context of contexts.splice(0)) await context.close();
}

beforeAll(async () => {
  browser = await launchBrowser({ fakeMedia: true });
  consultationId = await scheduledDemoConsultation('张伟 胸部CT 会诊', '右肺结节性质待定');
  await startTurn();
}, 180_000);

afterEach(async ({ task }) => {
  for (const [i, page] of pages.entries()) await shotIfFailed(task, page, i === 0 ? 'doctor' : 'expert');
  await closeAll();
});

afterAll(async () => {
  await closeAll();
  await browser?.close();
  turn?.kill('SIGTERM');
  await cancelOpenConsultations([consultationId]);
});

describe('consultation video', () => {
  it('the requester and the expert each receive the other’s video', async () => {
    step('both join the room');
    const doctor = await joinRoom('doctor', false);
    const expert = await joinRoom('expert', false);
    step('frames decoded on both sides');
    const [d, e] = await Promise.all([waitForFrames(doctor, 'doctor'), waitForFrames(expert, 'expert')]);
    expect(d.framesDecoded).toBeGreaterThan(0);
    expect(e.framesDecoded).toBeGreaterThan(0);
    await expect.poll(() => doctor.locator('.video-tile[data-peer]').count()).toBe(1);
    await expect(doctor.locator('.video-tile[data-peer] .video-name').innerText()).resolves.toBe('孙专家');
    await expect(expert.locator('.video-tile[data-peer] .video-name').innerText()).resolves.toBe('李医生');
    step('mute and camera off show on the other side');
    const micOff = expert.locator('.video-tile[data-peer] [aria-label="麦克风已关闭"]');
    expect(await micOff.count()).toBe(0);
    await doctor.keyboard.press('Alt+KeyM');
    await micOff.waitFor();
    await expect(doctor.getByRole('button', { name: /取消静音/ }).count()).resolves.toBe(1);
    await screenshot(doctor, 'consultation-video');
  });

  it('goes through coturn when only relayed candidates are allowed', async () => {
    step('both join with iceTransportPolicy relay');
    const doctor = await joinRoom('doctor', true);
    const expert = await joinRoom('expert', true);
    const [d, e] = await Promise.all([
      waitForFrames(doctor, 'doctor (relay)'),
      waitForFrames(expert, 'expert (relay)'),
    ]);
    expect(d.localType).toBe('relay');
    expect(e.localType).toBe('relay');
    expect(d.framesDecoded).toBeGreaterThan(0);
    expect(e.framesDecoded).toBeGreaterThan(0);
    // both ends of the pair in use are coturn's relayed addresses (allocated with the server's credentials)
    expect(d.remoteType).toBe('relay');
    expect(e.remoteType).toBe('relay');
    await screenshot(expert, 'consultation-video-relay');
  });
});
