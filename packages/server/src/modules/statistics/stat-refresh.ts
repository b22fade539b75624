import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db.js';
import { refreshMarked } from './stat-rollup.store.js';

/** the most marked days one background step recounts (one transaction: about a month of one organization) */
const DAYS_PER_STEP = 31;

/**
 * The background recount of the statistics' rollups (issue 26, "maintained ... by a job"): every
 * `everyMs` it recounts the marked (organization, day) pairs in steps of DAYS_PER_STEP until none
 * is left, so a statistic read finds little to recount (the first read after 1,000,000 exams were
 * written waited 227 s for all of it on 2026-11-28). A timer per instance, like the purge (app.ts):
 * two instances at once pass over each other's marks (skip locked). `stop` ends it after its step.
 */
export function startRollupRefresh(db: Db, log: FastifyBaseLogger, everyMs: number): { stop(): Promise<void> } {
  let stopped = false;
  let running: Promise<void> | null = null;
  const drain = async () => {
    const t0 = Date.now();
    let days = 0;
    for (;;) {
      if (stopped) break;
      const n = await refreshMarked(db, DAYS_PER_STEP);
      if (n === 0) break;
      days += n;
    }
    if (days > 0) log.info({ days, ms: Date.now() - t0 }, 'statistics rollups recounted in the background');
  };
  const timer = setInterval(() => {
    if (running) return;
    running = drain()
      .catch((err: unknown) => log.error({ err }, 'background recount of the statistics rollups failed'))
      .finally(() => {
        running = null;
      });
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
