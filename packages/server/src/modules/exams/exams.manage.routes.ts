import {
  addCoExamsSchema,
  addTagSchema,
  assignRequestSchema,
  assignResultSchema,
  coExamsSchema,
  examDetailQuerySchema,
  examDetailSchema,
  examTagSchema,
  examUpdateSchema,
  reporterSchema,
  reportersQuerySchema,
} from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditContext } from '../../platform/audit.js';
import type { Db } from '../../platform/db.js';
import { defineRoute, ownerFrom, type AuthedInput } from '../../platform/route.js';
import type { ExamManageService } from './exams.manage.service.js';
import { ownerOfExam } from './exams.owners.js';

const examParams = z.object({ examId: z.string().max(64) });
const tagParams = z.object({ examId: z.string().max(64), tagId: z.string().max(64) });

type Caller = Pick<AuthedInput<undefined, undefined, undefined>, 'account' | 'access' | 'bucket' | 'request'>;
const actor = (input: Caller) => ({
  account: input.account,
  access: input.access,
  bucket: input.bucket,
  ctx: auditContext(input.request),
});

/**
 * The exam detail drawer's calls (spec 001 §7 "Exams" and the reports/{id} prefix of
 * "Reports"): the {id} of reports/{id}/… is the exam's id (a report's id is its primary exam's).
 */
export function examManageRoutes(app: FastifyInstance, db: Db, manage: ExamManageService): void {
  const examOwner = ownerFrom('examId', ownerOfExam, db);
  defineRoute(app, {
    method: 'GET',
    url: 'exams/:examId/detail',
    summary: 'Every field of an exam, its series, co-written exams and what the caller may do to it',
    auth: { action: 'exam_get', owner: examOwner },
    params: examParams,
    query: examDetailQuerySchema,
    response: examDetailSchema,
    handler: (input) => manage.detail(actor(input), input.params.examId),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'exams/:examId',
    summary: 'Edit the registration fields of an exam (private fields need view_privacy)',
    auth: { action: 'exam_update', owner: examOwner },
    params: examParams,
    body: examUpdateSchema,
    response: examDetailSchema,
    handler: (input) => manage.update(actor(input), input.params.examId, input.body),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'buckets/accounts/report_save',
    summary: 'Who may write reports in these organizations (the reporter lookup for assignment)',
    auth: 'account',
    query: reportersQuerySchema,
    response: z.array(reporterSchema),
    handler: ({ account, query }) => manage.reporters(account, [query.bucketIds].flat().slice(0, 200)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'reports/:examId/assign',
    summary: 'Assign the exam to a reporter of its organization',
    auth: { action: 'report_assign', owner: examOwner },
    params: examParams,
    body: assignRequestSchema,
    response: assignResultSchema,
    handler: (input) => manage.assign(actor(input), input.params.examId, input.body.accountId),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'reports/:examId/assign-remove',
    summary: 'Remove the assignment of the exam',
    auth: { action: 'report_assign', owner: examOwner },
    params: examParams,
    response: assignResultSchema,
    handler: (input) => manage.assign(actor(input), input.params.examId, null),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'reports/:examId/tags',
    summary: "Tag the exam with one of its organization's tags",
    auth: { action: 'exam_update', owner: examOwner },
    params: examParams,
    body: addTagSchema,
    response: z.array(examTagSchema),
    handler: (input) => manage.addTag(actor(input), input.params.examId, input.body.tagId),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'reports/:examId/tags/:tagId',
    summary: 'Remove a tag from the exam',
    auth: { action: 'exam_update', owner: examOwner },
    params: tagParams,
    response: z.array(examTagSchema),
    handler: (input) => manage.removeTag(actor(input), input.params.examId, input.params.tagId),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'exams/:examId/co-exams',
    summary: 'The exams reported together with this one (primary first)',
    auth: { action: 'exam_get', owner: examOwner },
    params: examParams,
    query: examDetailQuerySchema,
    response: coExamsSchema,
    handler: (input) => manage.coExams(actor(input), input.params.examId),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'reports/:examId/co-exams/add',
    summary: 'Report other exams of the same patient together with this one (cannot be undone)',
    auth: { action: 'report_co_exam', owner: examOwner },
    params: examParams,
    body: addCoExamsSchema,
    response: coExamsSchema,
    handler: (input) => manage.addCoExams(actor(input), input.params.examId, input.body.examIds),
  });
}
