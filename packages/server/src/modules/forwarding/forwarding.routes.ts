import { forwardingCalls as calls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { Db } from '../../platform/db.js';
import { ownerFrom, type RawInput } from '../../platform/route.js';
import { ownerOfExam } from '../exams/index.js';
import type { ForwardingService } from './forwarding.service.js';

/*
 * Forwarding rules are the organization's settings beside its devices (procedure management): its
 * members read them, its admins change them. Sending a study is taking a copy of it out, as the
 * study package is (study_package); reading an exam's sends needs exam_get.
 */
const bucket = ({ params }: RawInput) => params.bucketId;
const read = { action: 'bucket_read', owner: bucket } as const;
const manage = { action: 'bucket_manage', owner: bucket } as const;

export function forwardingRoutes(app: FastifyInstance, db: Db, forwarding: ForwardingService): void {
  const owner = ownerFrom('examId', ownerOfExam, db);
  defineCallRoute(app, calls.listRules, {
    summary: "The organization's forwarding rules",
    auth: read,
    handler: ({ bucket: b }) => forwarding.listRules(b.id),
  });
  defineCallRoute(app, calls.createRule, {
    summary: 'Adds a forwarding rule: new studies that match are sent to the device on arrival',
    auth: manage,
    handler: ({ account, bucket: b, body, request }) =>
      forwarding.createRule(account, b.id, body, auditContext(request)),
  });
  defineCallRoute(app, calls.updateRule, {
    summary: 'Changes a forwarding rule',
    auth: manage,
    handler: ({ account, bucket: b, params, body, request }) =>
      forwarding.updateRule(account, b.id, params.id, body, auditContext(request)),
  });
  defineCallRoute(app, calls.removeRule, {
    summary: 'Removes a forwarding rule',
    auth: manage,
    handler: ({ account, bucket: b, params, request }) =>
      forwarding.removeRule(account, b.id, params.id, auditContext(request)),
  });
  defineCallRoute(app, calls.listSends, {
    summary: "The organization's recent sends to DICOM nodes",
    auth: read,
    handler: ({ bucket: b }) => forwarding.bucketSends(b.id),
  });
  defineCallRoute(app, calls.send, {
    summary: 'Sends the study (or some series) to a device by C-STORE',
    auth: { action: 'study_package', owner },
    handler: ({ account, access, bucket: b, params, body, request }) =>
      forwarding.send({ account, access, bucket: b }, params.examId, body, auditContext(request)),
  });
  defineCallRoute(app, calls.examSends, {
    summary: "The exam's sends to DICOM nodes",
    auth: { action: 'exam_get', owner },
    handler: ({ params }) => forwarding.examSends(params.examId),
  });
  defineCallRoute(app, calls.retrySend, {
    summary: 'Sends again what a failed send did not deliver',
    auth: { action: 'study_package', owner },
    handler: ({ account, access, bucket: b, params, request }) =>
      forwarding.retry({ account, access, bucket: b }, params.examId, params.sendId, auditContext(request)),
  });
}
