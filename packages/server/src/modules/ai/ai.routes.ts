import { aiCallbackSchema, aiTaskQuerySchema, aiTaskRequestSchema, aiTaskResultSchema } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditContext } from '../../platform/audit.js';
import type { Db } from '../../platform/db.js';
import { definePublicRoute, defineRoute, ownerFrom } from '../../platform/route.js';
import { ownerOfExam } from '../exams/index.js';
import type { AiService } from './ai.service.js';

/** The AI task of spec 001 §7, and the AI service's callback (signed, public). */
export function aiRoutes(app: FastifyInstance, db: Db, ai: AiService): void {
  const examOwner = ownerFrom('examId', ownerOfExam, db);
  defineRoute(app, {
    method: 'POST',
    url: 'exams/:examId/ai/task',
    summary: "Send the study to the group's AI service (a non-chest CT needs force)",
    auth: { action: 'exam_update', owner: examOwner },
    params: z.object({ examId: z.string().max(64) }),
    query: aiTaskQuerySchema,
    body: aiTaskRequestSchema,
    response: aiTaskResultSchema,
    handler: ({ account, bucket, params, query, body, request }) =>
      ai.queue(
        account,
        bucket,
        params.examId,
        { bucketId: query.bucketId, force: body.force, origin: `${request.protocol}://${request.host}` },
        auditContext(request),
      ),
  });
  definePublicRoute(app, {
    method: 'POST',
    url: 'ai/callback',
    summary: "The AI service's result, on the signed callback link it was given",
    query: z.object({ token: z.string().max(4096) }),
    body: aiCallbackSchema,
    response: z.object({ id: z.string(), aiStatus: z.string() }),
    handler: ({ query, body, request }) => ai.callback(query.token, body, auditContext(request)),
  });
}
