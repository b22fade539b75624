import { aiCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute, definePublicCallRoute } from '../../platform/call-route.js';
import type { Db } from '../../platform/db.js';
import { ownerFrom } from '../../platform/route.js';
import { ownerOfExam } from '../exams/index.js';
import type { AiService } from './ai.service.js';

/** The AI task of spec 001 §7, and the AI service's callback (signed, public); contracts aiCalls. */
export function aiRoutes(app: FastifyInstance, db: Db, ai: AiService): void {
  defineCallRoute(app, aiCalls.task, {
    summary: "Send the study to the group's AI service (a non-chest CT needs force)",
    auth: { action: 'exam_update', owner: ownerFrom('examId', ownerOfExam, db) },
    handler: ({ account, bucket, params, query, body, request }) =>
      ai.queue(
        account,
        bucket,
        params.examId,
        { bucketId: query.bucketId, force: body.force, origin: `${request.protocol}://${request.host}` },
        auditContext(request),
      ),
  });
  definePublicCallRoute(app, aiCalls.callback, {
    summary: "The AI service's result, on the signed callback link it was given",
    handler: ({ query, body, request }) => ai.callback(query.token, body, auditContext(request)),
  });
}
