import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPEECH_DEFAULT_SPEED, SPEECH_MAX_TEXT } from '@yyp/contracts';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { wavDurationSeconds } from './speech.audio.js';
import { SPEECH_CACHE_DAYS, SpeechService } from './speech.service.js';

/**
 * POST /yyp/api/text2speech with the Debian espeak-ng (scripts/install-test-deps.sh installs it and
 * sox, whose soxi reads the answer's duration), on PGlite and PostgreSQL.
 */
let t: TestApp;
let doctor: string;
const URL = '/yyp/api/text2speech';
const ANNOUNCEMENT = '请 3 号 王小东 到 CT 1 检查';

beforeAll(async () => {
  t = await startTestApp();
  doctor = await t.login('doctor');
  t.services.liveAccess.tokenVerifier('Probe', async (token) =>
    token === 'screen-ok' ? { subject: token, claims: { bucketId: 'b1' } } : null,
  );
});
afterAll(async () => {
  await t?.close();
});

function speak(body: unknown, headers: Record<string, string> = { authorization: `Bearer ${doctor}` }) {
  return t.app.inject({ method: 'POST', url: URL, headers, payload: body as object });
}

/** soxi's duration of a WAV, in seconds. */
function soxiSeconds(wav: Buffer): number {
  const file = path.join(os.tmpdir(), `yyp-speech-${process.pid}-${Date.now()}.wav`);
  fs.writeFileSync(file, wav);
  try {
    return Number(execFileSync('soxi', ['-D', file], { encoding: 'utf8' }).trim());
  } finally {
    fs.rmSync(file, { force: true });
  }
}

const cached = (text: string, voice: string) =>
  t.blobs.size(SpeechService.keyOf({ text, voice, speed: SPEECH_DEFAULT_SPEED }));

describe('POST /yyp/api/text2speech', () => {
  it('answers a WAV of the announcement with a duration, never cached by the browser', async () => {
    const res = await speak({ text: ANNOUNCEMENT, lang: 'chs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    expect(res.headers['cache-control']).toBe('no-store');
    const wav = res.rawPayload;
    expect(wav.toString('latin1', 0, 4)).toBe('RIFF');
    expect(wav.toString('latin1', 8, 12)).toBe('WAVE');
    const seconds = soxiSeconds(wav);
    expect(seconds).toBeGreaterThan(0.5);
    expect(wavDurationSeconds(wav)).toBeCloseTo(seconds, 2);
  });

  it('speaks Mandarin (cmn) for chs and tib, English for en', async () => {
    expect((await speak({ text: '请 5 号 到 CT 2 检查', lang: 'tib' })).statusCode).toBe(200);
    expect(await cached('请 5 号 到 CT 2 检查', 'cmn')).toBeGreaterThan(44);
    expect(await cached('请 5 号 到 CT 2 检查', 'en')).toBeNull();
    expect((await speak({ text: 'Number 5, please come to CT 2', lang: 'en' })).statusCode).toBe(200);
    expect(await cached('Number 5, please come to CT 2', 'en')).toBeGreaterThan(44);
    expect(await cached('Number 5, please come to CT 2', 'cmn')).toBeNull();
  });

  it("takes the account's language, else Accept-Language, when the body names none", async () => {
    const headers = { authorization: 'Probe screen-ok', 'accept-language': 'en-US,en;q=0.9' };
    expect((await speak({ text: 'Number 6' }, headers)).statusCode).toBe(200);
    expect(await cached('Number 6', 'en')).toBeGreaterThan(44);
    // an account whose interface is English hears English, whatever its browser says
    const tech = await t.login('tech');
    const set = await t.call('PATCH', 'accounts/me', { token: tech, body: { preferences: { language: 'en' } } });
    expect(set.statusCode).toBe(200);
    expect(
      (await speak({ text: 'Number 7' }, { authorization: `Bearer ${tech}`, 'accept-language': 'zh-CN' })).statusCode,
    ).toBe(200);
    expect(await cached('Number 7', 'en')).toBeGreaterThan(44);
    expect(await cached('Number 7', 'cmn')).toBeNull();
  });

  it('answers a repeat from the blob store without a second synthesis', async () => {
    const first = await speak({ text: '请 8 号 到 MR 1 检查' });
    const runs = t.services.speech.synthesized;
    const second = await speak({ text: '请 8 号 到 MR 1 检查' });
    expect(second.statusCode).toBe(200);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(t.services.speech.synthesized).toBe(runs);
  });

  it('synthesizes identical requests made at once only once', async () => {
    const runs = t.services.speech.synthesized;
    const answers = await Promise.all([1, 2, 3, 4].map(() => speak({ text: '请 9 号 到 DR 检查' })));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect(t.services.speech.synthesized).toBe(runs + 1);
  });

  it('accepts a registered screen token and refuses everyone else with 401', async () => {
    expect((await speak({ text: '请 3 号' }, { authorization: 'Probe screen-ok' })).statusCode).toBe(200);
    const refused = [
      await speak({ text: '请 3 号' }, {}),
      await speak({ text: '请 3 号' }, { authorization: 'Bearer not-a-token' }),
      await speak({ text: '请 3 号' }, { authorization: 'Probe screen-revoked' }),
      await speak({ text: '请 3 号' }, { authorization: 'Nobody screen-ok' }),
    ];
    expect(refused.map((r) => [r.statusCode, r.json().code])).toEqual([
      [401, 'Unauthenticated'],
      [401, 'JsonWebTokenError'],
      [401, 'JsonWebTokenError'],
      [401, 'JsonWebTokenError'],
    ]);
  });

  it('refuses an empty text, a blank one and one over the limit with 400, synthesizing nothing', async () => {
    const runs = t.services.speech.synthesized;
    for (const body of [{ text: '' }, { text: '   ' }, { text: '号'.repeat(SPEECH_MAX_TEXT + 1) }, {}, { text: 3 }]) {
      const res = await speak(body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(res.json().code).toBe('ValidationError');
    }
    expect((await speak({ text: '号'.repeat(SPEECH_MAX_TEXT) })).statusCode).toBe(200);
    expect((await speak({ text: '请 3 号', lang: 'fr' })).statusCode).toBe(400);
    expect(t.services.speech.synthesized).toBe(runs + 1);
  });

  it('answers 503 ServiceNotConfigured naming espeak-ng when the program is missing', async () => {
    const broken = await startTestApp({
      db: t.db,
      clock: t.clock,
      seed: false,
      app: { espeakPath: '/nonexistent/espeak-ng' },
    });
    try {
      const token = await broken.login('doctor');
      const res = await broken.app.inject({
        method: 'POST',
        url: URL,
        headers: { authorization: `Bearer ${token}` },
        payload: { text: '请 10 号' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'ServiceNotConfigured', details: { package: 'espeak-ng' } });
      expect(res.json().message).toMatch(/espeak-ng/);
    } finally {
      await broken.close();
    }
  });

  it('deletes a stored announcement two days after it was made (it speaks a name), then makes it anew', async () => {
    // last: it moves the clock two days (the doctor's token expires), so a screen token speaks
    const screen = { authorization: 'Probe screen-ok' };
    const text = '请 11 号 李四 到 CT 1 检查';
    expect((await speak({ text }, screen)).statusCode).toBe(200);
    expect(await cached(text, 'cmn')).toBeGreaterThan(44);
    t.clock.advance(SPEECH_CACHE_DAYS * 86_400_000 - 60_000);
    await t.services.jobs.runDue();
    expect(await cached(text, 'cmn')).toBeGreaterThan(44);
    t.clock.advance(60_000);
    await t.services.jobs.runDue();
    expect(await cached(text, 'cmn')).toBeNull();
    const runs = t.services.speech.synthesized;
    expect((await speak({ text }, screen)).statusCode).toBe(200);
    expect(t.services.speech.synthesized).toBe(runs + 1);
  });
});
