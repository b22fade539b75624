import { bindingCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { effectiveActions } from '../../platform/authz.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { Db } from '../../platform/db.js';
import { ownerFrom, type RawInput } from '../../platform/route.js';
import type { AuthedInput } from '../../platform/route.js';
import { ownerOfExam } from '../exams/index.js';
import type { RegistryMatch } from './registry-match.service.js';

/**
 * Image binding's calls (contracts bindingCalls). The candidates are the desk's (registry_arrive)
 * and the admins' (exam_bind): the route lets members of the exam's organization through and the
 * service checks either action; match needs the desk's action, bind exam_bind (admins only).
 */
export function registryMatchRoutes(app: FastifyInstance, db: Db, binding: RegistryMatch): void {
  const owner = ownerFrom('examId', ownerOfExam, db);
  const caller = (input: Pick<AuthedInput<never, never, never>, 'account' | 'access' | 'bucket' | 'request'>) => ({
    account: input.account,
    actions: effectiveActions(input.access, input.bucket),
    groupId: input.bucket.groupId,
    ctx: auditContext(input.request),
  });
  defineCallRoute(app, bindingCalls.candidates, {
    summary: "Scheduled exams of the exam's organization its images can go to (the desk and admins)",
    auth: { action: 'bucket_read', owner },
    handler: (input) => binding.candidates(caller(input), input.params.examId, input.query.q),
  });
  defineCallRoute(app, bindingCalls.match, {
    summary: 'Make this exam the scheduled exam’s exam (Performed), taking its registration',
    auth: { action: 'registry_arrive', owner },
    handler: (input) => binding.match(caller(input), input.params.examId, input.params.scheduledId),
  });
  defineCallRoute(app, bindingCalls.bind, {
    summary: 'Bind these images to a scheduled exam, replacing its images; confirmed by its accession number (admins)',
    auth: { action: 'exam_bind', owner },
    handler: (input) => binding.bind(caller(input), input.params.examId, input.params.scheduledId, input.body.confirm),
  });
  defineCallRoute(app, bindingCalls.bindCode, {
    summary: 'How studies reach this organization to be bound: its code, the AE titles, the upload link (admins)',
    auth: { action: 'exam_bind', owner: ({ params }: RawInput) => params.bucketId },
    handler: ({ bucket }) => binding.bindCode(bucket.id),
  });
}
