import { examCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { Db } from '../../platform/db.js';
import { ownerFrom } from '../../platform/route.js';
import type { ExamListService } from './exams.list.service.js';
import { ownerOfAnyExam, ownerOfExam } from './exams.owners.js';

/**
 * The study list (spec 001 §7 "Exams"). The list calls are scoped inside the service to the
 * buckets where the caller holds the action; calls on one exam name its bucket. Recovery and
 * delete-for-good keep the spec's paths reports/{id}/recovery and reports/{id}/delete (a report's
 * id is its primary exam's id). Paths and schemas are contracts examCalls.
 */
export function examListRoutes(app: FastifyInstance, db: Db, list: ExamListService): void {
  const liveExam = ownerFrom('examId', ownerOfExam, db);
  const get = { action: 'exam_get', owner: liveExam } as const;
  const remove = { action: 'exam_delete', owner: liveExam } as const;
  // a deleted exam is recovered or removed for good: its owner is looked up among deleted exams too
  const restore = { action: 'exam_delete', owner: ownerFrom('examId', ownerOfAnyExam, db) } as const;
  defineCallRoute(app, examCalls.page, {
    summary: 'A page of the study list: filters, sorts, skip and limit; private fields masked without view_privacy',
    auth: 'account',
    handler: ({ account, body, request }) => list.page(account, body, auditContext(request)),
  });
  defineCallRoute(app, examCalls.modifyPrintStatus, {
    summary: "Mark studies' films printed or not (exam_update in each one's organization; all or none)",
    auth: 'account',
    handler: ({ account, body, request }) =>
      list.modifyPrintStatus(account, body.storeUids, body.printed, auditContext(request)),
  });
  defineCallRoute(app, examCalls.newly, {
    summary: 'New exams for the 30-second poll: created within 7 days (after `since`), newest 5',
    auth: 'account',
    handler: ({ account, body, request }) => list.newly(account, body.since, auditContext(request)),
  });
  defineCallRoute(app, examCalls.count, {
    summary: 'How many exams the study list filters match',
    auth: 'account',
    handler: async ({ account, body }) => ({ count: await list.count(account, body.filters) }),
  });
  defineCallRoute(app, examCalls.deletedPage, {
    summary: 'The deleted-exams view: exams deleted in the last 30 days, recoverable (exam_delete)',
    auth: 'account',
    handler: ({ account, body, request }) => list.deletedPage(account, body, auditContext(request)),
  });
  defineCallRoute(app, examCalls.past, {
    summary:
      "The patient's other exams (patient ID, birth-date mode; across organizations if the group allows), 15 a page",
    auth: get,
    handler: ({ account, bucket, params, body, request }) =>
      list.past(account, bucket, params.examId, body, auditContext(request)),
  });
  defineCallRoute(app, examCalls.pastCount, {
    summary: 'How many other exams the patient has (as exams/{id}/past)',
    auth: get,
    handler: async ({ account, bucket, params, request }) => ({
      count: (await list.past(account, bucket, params.examId, {}, auditContext(request), true)).count,
    }),
  });
  defineCallRoute(app, examCalls.get, {
    summary: 'One exam in the study list shape',
    auth: get,
    handler: ({ account, access, bucket, params, request }) =>
      list.get(account, access, bucket, params.examId, auditContext(request)),
  });
  defineCallRoute(app, examCalls.softDelete, {
    summary: 'Delete an exam (recoverable for 30 days)',
    auth: remove,
    handler: ({ account, bucket, params, request }) =>
      list.softDelete(account, bucket, params.examId, auditContext(request)),
  });
  defineCallRoute(app, examCalls.recover, {
    summary: 'Recover a deleted exam within 30 days (a report id is its primary exam id)',
    auth: restore,
    handler: ({ account, access, bucket, params, request }) =>
      list.recover(account, access, bucket, params.examId, auditContext(request)),
  });
  defineCallRoute(app, examCalls.destroy, {
    summary: 'Remove a deleted exam for good, with its images (a report id is its primary exam id)',
    auth: restore,
    handler: ({ account, bucket, params, request }) =>
      list.destroy(account, bucket, params.examId, auditContext(request)),
  });
}
