import type { FastifyInstance } from 'fastify';
import type { ExamListService } from './modules/exams/index.js';

/**
 * The purge of exams deleted more than 30 days ago, every `everyMs`: a timer per instance rather
 * than a job of platform/jobs.ts (it has no input and nothing to retry: the next tick does what one
 * missed); two instances purging at once is harmless, each exam goes in a transaction that locks it
 * first. It stops with the app, after a purge under way.
 */
export function startDeletedExamPurge(app: FastifyInstance, examList: ExamListService, everyMs: number): void {
  let purging: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (purging) return;
    purging = examList
      .purge()
      .then((n) => {
        if (n > 0) app.log.info({ exams: n }, 'purged deleted exams');
      })
      .catch((err: unknown) => app.log.error({ err }, 'purge of deleted exams failed'))
      .finally(() => {
        purging = null;
      });
  }, everyMs);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await purging;
  });
}
