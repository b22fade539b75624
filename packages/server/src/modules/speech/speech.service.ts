import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../platform/errors.js';
import type { BlobStore } from '../../platform/blobs.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import type { JobQueue } from '../../platform/jobs.js';
import { espeakArgs, fixWavSizes } from './speech.audio.js';

/**
 * Text-to-speech with espeak-ng (Debian package espeak-ng): a WAV per (voice, speed, text), kept
 * in the blob store under speech/<sha256>.wav so a repeated announcement costs no synthesis;
 * identical requests at once share one synthesis. At most MAX_RUNNING espeak-ng processes run at
 * once (the others wait their turn); one that runs longer than TIMEOUT_MS is killed.
 * Announcements speak patient names: each stored WAV is deleted SPEECH_CACHE_DAYS after it was made
 * (a job of platform/jobs.ts), so the store neither grows without end nor keeps names for long.
 */
export interface SpeechRequest {
  text: string;
  voice: string;
  speed: number;
}

const MAX_RUNNING = 2;
const TIMEOUT_MS = 15_000;
const MAX_OUTPUT_BYTES = 20 * 1024 * 1024;
export const SPEECH_CACHE_DAYS = 2;
export const SPEECH_EXPIRE_JOB = 'speech.expire';

export const notConfigured = (program: string) =>
  new AppError(
    'ServiceNotConfigured',
    `Text-to-speech needs espeak-ng (install the Debian package espeak-ng, or set ESPEAK_NG); ${program} was not found`,
    { package: 'espeak-ng' },
  );

export class SpeechService {
  private readonly inFlight = new Map<string, Promise<Buffer>>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** syntheses run (not answered from the store): tests count them */
  synthesized = 0;

  constructor(
    private readonly deps: { db: Db; blobs: BlobStore; clock: Clock; jobs: JobQueue; logger?: FastifyBaseLogger },
    private readonly program: string,
  ) {
    deps.jobs.register(SPEECH_EXPIRE_JOB, {
      run: async (job) => {
        const key = job.payload.key;
        if (typeof key === 'string' && key.startsWith('speech/')) await deps.blobs.delete(key);
      },
    });
  }

  /** The blob key of a request's audio. */
  static keyOf(request: SpeechRequest): string {
    const hash = crypto
      .createHash('sha256')
      .update(`${request.voice}\n${request.speed}\n${request.text}`)
      .digest('hex');
    return `speech/${hash}.wav`;
  }

  /** The WAV of the request, from the store or synthesized once. */
  async speak(request: SpeechRequest): Promise<Buffer> {
    const key = SpeechService.keyOf(request);
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const work = this.cachedOrNew(key, request).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, work);
    return work;
  }

  private async cachedOrNew(key: string, request: SpeechRequest): Promise<Buffer> {
    if ((await this.deps.blobs.size(key)) !== null) {
      try {
        return await this.deps.blobs.get(key);
      } catch {
        // gone between the two calls: synthesize again
      }
    }
    const wav = await this.limited(() => this.run(request));
    try {
      await this.deps.blobs.put(key, wav);
      const expires = new Date(this.deps.clock.now().getTime() + SPEECH_CACHE_DAYS * 86_400_000);
      await this.deps.jobs.enqueue(this.deps.db, SPEECH_EXPIRE_JOB, { key }, 3, expires);
    } catch (err) {
      this.deps.logger?.warn({ err }, 'speech cache write failed');
    }
    return wav;
  }

  private async limited<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running >= MAX_RUNNING) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await fn();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  private run(request: SpeechRequest): Promise<Buffer> {
    this.synthesized++;
    return new Promise((resolve, reject) => {
      const child = spawn(this.program, espeakArgs(request.voice, request.speed), {
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const chunks: Buffer[] = [];
      let bytes = 0;
      let stderr = '';
      const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
      child.stdout.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > MAX_OUTPUT_BYTES) child.kill('SIGKILL');
        else chunks.push(chunk);
      });
      child.stderr.on('data', (chunk: Buffer) => {
        if (stderr.length < 2000) stderr += chunk.toString('utf8');
      });
      child.stdin.on('error', () => undefined);
      child.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(err.code === 'ENOENT' || err.code === 'EACCES' ? notConfigured(this.program) : err);
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        const wav = Buffer.concat(chunks);
        if (code === 0 && wav.length > 44) return resolve(fixWavSizes(wav));
        this.deps.logger?.error({ code, signal, stderr: stderr.trim() }, 'espeak-ng failed');
        reject(new Error(`espeak-ng failed (${signal ?? code})`));
      });
      child.stdin.end(request.text, 'utf8');
    });
  }
}
