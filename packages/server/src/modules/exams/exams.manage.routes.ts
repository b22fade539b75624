import { examCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { Db } from '../../platform/db.js';
import { ownerFrom, type AuthedInput } from '../../platform/route.js';
import type { ExamManageService } from './exams.manage.service.js';
import { ownerOfExam } from './exams.owners.js';

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
 * Paths and schemas are contracts examCalls.
 */
export function examManageRoutes(app: FastifyInstance, db: Db, manage: ExamManageService): void {
  const owner = ownerFrom('examId', ownerOfExam, db);
  const get = { action: 'exam_get', owner } as const;
  const update = { action: 'exam_update', owner } as const;
  const assign = { action: 'report_assign', owner } as const;
  defineCallRoute(app, examCalls.detail, {
    summary: 'Every field of an exam, its series, co-written exams and what the caller may do to it',
    auth: get,
    handler: (input) => manage.detail(actor(input), input.params.examId),
  });
  defineCallRoute(app, examCalls.update, {
    summary: 'Edit the registration fields of an exam (private fields need view_privacy)',
    auth: update,
    handler: (input) => manage.update(actor(input), input.params.examId, input.body),
  });
  defineCallRoute(app, examCalls.reporters, {
    summary: 'Who may write reports in these organizations (the reporter lookup for assignment)',
    auth: 'account',
    handler: ({ account, query }) => manage.reporters(account, [query.bucketIds].flat().slice(0, 200)),
  });
  defineCallRoute(app, examCalls.assign, {
    summary: 'Assign the exam to a reporter of its organization',
    auth: assign,
    handler: (input) => manage.assign(actor(input), input.params.examId, input.body.accountId),
  });
  defineCallRoute(app, examCalls.assignRemove, {
    summary: 'Remove the assignment of the exam',
    auth: assign,
    handler: (input) => manage.assign(actor(input), input.params.examId, null),
  });
  defineCallRoute(app, examCalls.addTag, {
    summary: "Tag the exam with one of its organization's tags",
    auth: update,
    handler: (input) => manage.addTag(actor(input), input.params.examId, input.body.tagId),
  });
  defineCallRoute(app, examCalls.removeTag, {
    summary: 'Remove a tag from the exam',
    auth: update,
    handler: (input) => manage.removeTag(actor(input), input.params.examId, input.params.tagId),
  });
  defineCallRoute(app, examCalls.coExams, {
    summary: 'The exams reported together with this one (primary first)',
    auth: get,
    handler: (input) => manage.coExams(actor(input), input.params.examId),
  });
  defineCallRoute(app, examCalls.addCoExams, {
    summary: 'Report other exams of the same patient together with this one (cannot be undone)',
    auth: { action: 'report_co_exam', owner },
    handler: (input) => manage.addCoExams(actor(input), input.params.examId, input.body.examIds),
  });
}
