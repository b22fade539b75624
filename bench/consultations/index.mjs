#!/usr/bin/env node
// bench/consultations (issue 25 "Video"): the consultation video room on loopback, BENCH_RUNS runs
// (default 3), each on a fresh yyp (PGlite, demo studies on) with a consultation of the demo
// hospital's doctor and the demo expert made through the API (target organization, request on
// 张伟's CT, accepted).
//  1. signalling round trip: two room sockets (the doctor's and the expert's room tokens, scheme
//     'Room') in the same room; the doctor publishes a `candidates` signal to the expert, who answers
//     with one back as soon as it arrives; BENCH_ROUNDS (default 300) round trips, one at a time.
//     Goal: p95 ≤ 50 ms.
//  2. join → first remote frame: two Chromium contexts with fake camera and microphone open the
//     consultation's page; the expert joins first, then the time from the doctor's click on Join
//     video to the first decoded remote video frame (getStats framesDecoded > 0, polled every 20 ms).
//     Goal: ≤ 3 s.
// Writes bench/results/consultations.json. Usage: npm run build && node bench/consultations/index.mjs
/* global window, document */ // page.evaluate runs in the browser
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import WebSocket from 'ws';
import { machine, percentile, round, runBounded, sleep, waitFor } from '../lib/util.mjs';
import { DEMO_PASSWORD, startYyp, yypApi, yypLogin } from '../lib/yyp.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const RUNS = Number(process.env.BENCH_RUNS || 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 300);
const GOAL_RTT_P95_MS = 50;
const GOAL_FIRST_FRAME_MS = 3000;

async function scheduledConsultation(yyp) {
  const tokens = {};
  for (const u of ['groupadmin', 'doctor', 'expert']) tokens[u] = (await yypLogin(yyp, u)).accessToken;
  const experts = await yypApi(yyp, tokens.groupadmin, 'groups/demo-renhe/expert-buckets');
  const tele = (Array.isArray(experts) ? experts : experts.data)[0].bucketId;
  await fetch(`${yyp.httpBase}/yyp/api/v1/groups/demo-renhe/consultation-targets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.groupadmin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ bucketId: tele }),
  });
  const buckets = await yypApi(yyp, tokens.doctor, 'consultations/buckets');
  const sun = buckets.targets.find((b) => b.bucketId === tele).experts.find((e) => e.name === '孙专家');
  const source = buckets.sources.find((b) => b.name === '放射科') ?? buckets.sources[0];
  const exam = await waitFor(
    async () => {
      const page = await yypApi(yyp, tokens.doctor, 'exams/page-query', { filters: [], limit: 50 });
      return page.exams.find((e) => e.patientName === '张伟' && e.modality === 'CT');
    },
    { timeoutMs: 120_000, what: "张伟's CT" },
  );
  const created = await yypApi(yyp, tokens.doctor, 'consultations', {
    sourceBucketId: source.bucketId,
    targetBucketId: tele,
    examId: exam.id,
    title: 'bench 会诊',
    patient: { name: '张伟', age: '', gender: '', tel: '', email: '', contactHospital: '' },
    scheduledAt: new Date().toISOString(),
    reason: 'bench',
    experts: [sun.accountId],
  });
  await yypApi(yyp, tokens.expert, `consultations/${created.id}/status`, { status: 1, version: created.version });
  return { id: created.id, tokens };
}

function roomSocket(yyp, room, onSignal) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${yyp.httpBase.replace(/^http/, 'ws')}/yyp/api/v1/live`);
    const topic = `rtc:${room.roomId}`;
    ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', scheme: 'Room', token: room.token })));
    ws.on('error', reject);
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data));
      if (msg.type === 'ready') ws.send(JSON.stringify({ type: 'subscribe', topic }));
      else if (msg.type === 'subscribed') resolve(ws);
      else if (msg.type === 'event' && msg.event.from.peerId !== room.peerId) onSignal(msg.event.data);
    });
  });
}

async function roundTrips(yyp, consultationId, tokens) {
  const start = (who) => yypApi(yyp, tokens[who], 'video-meetings/start', { consultationId });
  const [doctorRoom, expertRoom] = [await start('doctor'), await start('expert')];
  let answered = null;
  const publish = (ws, to, n) =>
    ws.send(
      JSON.stringify({
        type: 'publish',
        topic: `rtc:${consultationId}`,
        event: { kind: 'candidates', to, candidates: [{ candidate: `candidate:${n} 1 udp 1 127.0.0.1 9 typ host` }] },
      }),
    );
  const expertWs = await roomSocket(yyp, expertRoom, (signal) => {
    if (signal.to === expertRoom.peerId) publish(expertWs, doctorRoom.peerId, signal.candidates[0].candidate);
  });
  const doctorWs = await roomSocket(yyp, doctorRoom, (signal) => {
    if (signal.to === doctorRoom.peerId) answered?.();
  });
  const times = [];
  for (let n = 0; n < ROUNDS; n++) {
    const t0 = performance.now();
    await new Promise((resolve) => {
      answered = resolve;
      publish(doctorWs, expertRoom.peerId, n);
    });
    times.push(performance.now() - t0);
    // within the publish budget (300 per 10 s per socket)
    await sleep(40);
  }
  doctorWs.close();
  expertWs.close();
  return { p50: round(percentile(times, 50)), p95: round(percentile(times, 95)), max: round(Math.max(...times)) };
}

async function firstFrame(yyp, consultationId) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'],
  });
  try {
    const open = async (username) => {
      const context = await browser.newContext({ baseURL: yyp.httpBase, locale: 'zh-CN' });
      await context.addInitScript(`(() => {
        const O = window.RTCPeerConnection; window.__pcs = [];
        window.RTCPeerConnection = class extends O { constructor(c) { super(c); window.__pcs.push(this); } };
      })();`);
      const page = await context.newPage();
      await page.goto('/login');
      await page.getByPlaceholder('用户名').fill(username);
      await page.getByPlaceholder('密码').fill(DEMO_PASSWORD);
      await page.getByPlaceholder('密码').press('Enter');
      await page.waitForURL('**/studies');
      await page.goto(`/consultations/${consultationId}`);
      await page.getByRole('button', { name: /加入视频/ }).waitFor();
      return page;
    };
    const [expert, doctor] = [await open('expert'), await open('doctor')];
    await expert.getByRole('button', { name: /加入视频/ }).click();
    await expert.getByRole('button', { name: /离开/ }).waitFor();
    // the time is measured in the doctor's page, from the click to the first decoded frame
    const ms = await doctor.evaluate(async () => {
      const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.includes('加入视频'));
      const t0 = performance.now();
      button.click();
      for (;;) {
        for (const pc of window.__pcs) {
          const stats = await pc.getStats();
          let frames = 0;
          stats.forEach((s) => {
            if (s.type === 'inbound-rtp' && s.kind === 'video') frames += s.framesDecoded ?? 0;
          });
          if (frames > 0) return performance.now() - t0;
        }
        if (performance.now() - t0 > 30_000) throw new Error('no remote frame in 30 s');
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    return round(ms);
  } finally {
    await browser.close();
  }
}

async function main() {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const yyp = await startYyp({ store: 'pglite', env: { YYP_DEMO_STUDIES: 'on' } });
    try {
      const { id, tokens } = await scheduledConsultation(yyp);
      const signalling = await roundTrips(yyp, id, tokens);
      const firstFrameMs = await firstFrame(yyp, id);
      runs.push({ signallingRoundTripMs: signalling, joinToFirstRemoteFrameMs: firstFrameMs });
      console.log(`run ${i + 1}: round trip p95 ${signalling.p95} ms, join → first remote frame ${firstFrameMs} ms`);
    } finally {
      await yyp.stop();
    }
  }
  const p95s = runs.map((r) => r.signallingRoundTripMs.p95);
  const frames = runs.map((r) => r.joinToFirstRemoteFrameMs);
  const record = {
    bench: 'consultations',
    date: new Date().toISOString(),
    ...machine(),
    rounds: ROUNDS,
    runs,
    medianRoundTripP95Ms: [...p95s].sort((a, b) => a - b)[Math.floor(p95s.length / 2)],
    medianFirstFrameMs: [...frames].sort((a, b) => a - b)[Math.floor(frames.length / 2)],
    goals: { roundTripP95Ms: GOAL_RTT_P95_MS, firstFrameMs: GOAL_FIRST_FRAME_MS },
  };
  record.met = record.medianRoundTripP95Ms <= GOAL_RTT_P95_MS && record.medianFirstFrameMs <= GOAL_FIRST_FRAME_MS;
  fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'bench/results/consultations.json'), JSON.stringify(record, null, 2) + '\n');
  console.log(JSON.stringify(record, null, 2));
}

await runBounded(main, 1800);
