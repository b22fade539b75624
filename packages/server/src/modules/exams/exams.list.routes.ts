import {
  examCountSchema,
  examDeletedSchema,
  examItemSchema,
  examPageSchema,
  examQuerySchema,
  examsNewlySchema,
  modifyPrintStatusResultSchema,
  modifyPrintStatusSchema,
  pastExamsQuerySchema,
} from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditContext } from '../../platform/audit.js';
import type { Db } from '../../platform/db.js';
import { defineRoute, ownerFrom } from '../../platform/route.js';
import type { ExamListService } from './exams.list.service.js';
import { ownerOfAnyExam, ownerOfExam } from './exams.owners.js';

const examParams = z.object({ examId: z.string().max(64) });

/**
 * The study list (spec 001 §7 "Exams"). The list calls are scoped inside the service to the
 * buckets where the caller holds the action; calls on one exam name its bucket. Recovery and
 * delete-for-good keep the spec's paths reports/{id}/recovery and reports/{id}/delete: until
 * reports exist (the reporting issue) the id in them is the exam id.
 */
export function examListRoutes(app: FastifyInstance, db: Db, list: ExamListService): void {
  const liveExam = ownerFrom('examId', ownerOfExam, db);
  const anyExam = ownerFrom('examId', ownerOfAnyExam, db);
  defineRoute(app, {
    method: 'POST',
    url: 'exams/page-query',
    summary: 'A page of the study list: filters, sorts, skip and limit; private fields masked without view_privacy',
    auth: 'account',
    body: examQuerySchema,
    response: examPageSchema,
    handler: ({ account, body, request }) => list.page(account, body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'exams/modify-print-status',
    summary: "Mark studies' films printed or not (exam_update in each one's organization; all or none)",
    auth: 'account',
    body: modifyPrintStatusSchema,
    response: modifyPrintStatusResultSchema,
    handler: ({ account, body, request }) =>
      list.modifyPrintStatus(account, body.storeUids, body.printed, auditContext(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'exams/newly',
    summary: 'New exams for the 30-second poll: created within 7 days (after `since`), newest 5',
    auth: 'account',
    body: examsNewlySchema,
    response: examPageSchema,
    handler: ({ account, body, request }) => list.newly(account, body.since, auditContext(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'exams/query/count',
    summary: 'How many exams the study list filters match',
    auth: 'account',
    body: examQuerySchema,
    response: examCountSchema,
    handler: async ({ account, body }) => ({ count: await list.count(account, body.filters) }),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'exams/deleted-query',
    summary: 'The deleted-exams view: exams deleted in the last 30 days, recoverable (exam_delete)',
    auth: 'account',
    body: examQuerySchema,
    response: examPageSchema,
    handler: ({ account, body, request }) => list.deletedPage(account, body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'exams/:examId/past',
    summary:
      "The patient's other exams (patient ID, birth-date mode; across organizations if the group allows), 15 a page",
    auth: { action: 'exam_get', owner: liveExam },
    params: examParams,
    body: pastExamsQuerySchema,
    response: examPageSchema,
    handler: ({ account, bucket, params, body, request }) =>
      list.past(account, bucket, params.examId, body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'exams/:examId/past/count',
    summary: 'How many other exams the patient has (as exams/{id}/past)',
    auth: { action: 'exam_get', owner: liveExam },
    params: examParams,
    response: examCountSchema,
    handler: async ({ account, bucket, params, request }) => ({
      count: (await list.past(account, bucket, params.examId, {}, auditContext(request), true)).count,
    }),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'exams/:examId',
    summary: 'One exam in the study list shape',
    auth: { action: 'exam_get', owner: liveExam },
    params: examParams,
    response: examItemSchema,
    handler: ({ account, access, bucket, params, request }) =>
      list.get(account, access, bucket, params.examId, auditContext(request)),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'exams/:examId/delete',
    summary: 'Delete an exam (recoverable for 30 days)',
    auth: { action: 'exam_delete', owner: liveExam },
    params: examParams,
    response: examDeletedSchema,
    handler: ({ account, bucket, params, request }) =>
      list.softDelete(account, bucket, params.examId, auditContext(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'reports/:examId/recovery',
    summary: 'Recover a deleted exam within 30 days (a report id is its primary exam id)',
    auth: { action: 'exam_delete', owner: anyExam },
    params: examParams,
    response: examItemSchema,
    handler: ({ account, access, bucket, params, request }) =>
      list.recover(account, access, bucket, params.examId, auditContext(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'reports/:examId/delete',
    summary: 'Remove a deleted exam for good, with its images (a report id is its primary exam id)',
    auth: { action: 'exam_delete', owner: anyExam },
    params: examParams,
    status: 204,
    handler: ({ account, bucket, params, request }) =>
      list.destroy(account, bucket, params.examId, auditContext(request)),
  });
}
