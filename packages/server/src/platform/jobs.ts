import type { FastifyBaseLogger } from 'fastify';
import { and, asc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import { jobs } from '../db/schema.js';
import type { Clock } from './clock.js';
import type { Db } from './db.js';

export interface JobRow {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  maxAttempts: number;
}
/** A job's work; a throw retries it later, until its last attempt, when onGiveUp runs. */
export interface JobHandler {
  run(job: JobRow): Promise<void>;
  onGiveUp?(job: JobRow, error: unknown): Promise<void>;
}

/** How long a claimed job stays claimed: a worker that died holding it frees it after this. */
const LEASE_MS = 5 * 60_000;
/** Retry delays: 30 s, 2 min, 8 min … */
const backoffMs = (attempt: number) => 30_000 * 4 ** Math.max(0, attempt - 1);

/**
 * The job queue (DESIGN.md "Slow work is a job"): rows in PostgreSQL, claimed one at a time with
 * FOR UPDATE SKIP LOCKED, so any number of instances can work the same queue; a job that fails is
 * retried with backoff until its last attempt; a worker that dies mid-job leaves a lease that
 * runs out, and the job is taken again.
 */
export class JobQueue {
  private readonly handlers = new Map<string, JobHandler>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /**
   * Queues a job; pass the caller's transaction so the job exists only if its change commits.
   * `runAfter`: not before then (default now).
   */
  async enqueue(
    db: Db,
    kind: string,
    payload: Record<string, unknown>,
    maxAttempts = 3,
    runAfter?: Date,
  ): Promise<number> {
    const now = this.clock.now();
    const [row] = await db
      .insert(jobs)
      .values({ kind, payload, maxAttempts, runAfter: runAfter ?? now, createdAt: now, updatedAt: now })
      .returning({ id: jobs.id });
    return row!.id;
  }

  /** Claims the next due job (queued and due, or running with its lease run out), or null. */
  private async claim(): Promise<JobRow | null> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(jobs)
        .where(
          and(
            inArray(jobs.kind, [...this.handlers.keys()]),
            or(
              and(eq(jobs.status, 'queued'), lte(jobs.runAfter, now)),
              and(eq(jobs.status, 'running'), lte(jobs.lockedUntil, now)),
            ),
          ),
        )
        .orderBy(asc(jobs.runAfter), asc(jobs.id))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!row) return null;
      await tx
        .update(jobs)
        .set({
          status: 'running',
          attempts: sql`${jobs.attempts} + 1`,
          lockedUntil: new Date(now.getTime() + LEASE_MS),
          updatedAt: now,
        })
        .where(eq(jobs.id, row.id));
      return {
        id: row.id,
        kind: row.kind,
        payload: row.payload,
        attempts: row.attempts + 1,
        maxAttempts: row.maxAttempts,
      };
    });
  }

  /** Runs due jobs one after another until none is due (or `limit` ran); answers how many ran. */
  async runDue(limit = 50): Promise<number> {
    let ran = 0;
    while (ran < limit) {
      const job = await this.claim();
      if (!job) break;
      ran++;
      const handler = this.handlers.get(job.kind)!;
      const now = () => this.clock.now();
      try {
        await handler.run(job);
        await this.db
          .update(jobs)
          .set({ status: 'done', lockedUntil: null, lastError: null, updatedAt: now() })
          .where(eq(jobs.id, job.id));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const last = job.attempts >= job.maxAttempts;
        await this.db
          .update(jobs)
          .set({
            status: last ? 'failed' : 'queued',
            lockedUntil: null,
            lastError: message.slice(0, 1000),
            runAfter: new Date(now().getTime() + backoffMs(job.attempts)),
            updatedAt: now(),
          })
          .where(eq(jobs.id, job.id));
        this.log.warn({ job: job.id, kind: job.kind, attempt: job.attempts, last, error: message }, 'job failed');
        if (last) await handler.onGiveUp?.(job, error).catch(() => undefined);
      }
    }
    return ran;
  }

  /** Polls for due jobs every `intervalMs` (one run at a time per instance). */
  start(intervalMs: number): void {
    if (this.timer || intervalMs <= 0) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.runDue()
        .catch((err: unknown) => {
          this.log.error({ err }, 'job worker failed');
          return 0;
        })
        .finally(() => {
          this.running = null;
        });
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** A job's row (status, attempts, last error): for tests and the admin. */
  async find(id: number) {
    const [row] = await this.db.select().from(jobs).where(eq(jobs.id, id));
    return row;
  }
}
