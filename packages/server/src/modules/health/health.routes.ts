import { healthSchema } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db.js';
import { definePublicRoute } from '../../platform/route.js';
import { checkDatabase } from './health.service.js';

export function healthRoutes(app: FastifyInstance, db: Db, version: string): void {
  definePublicRoute(app, {
    method: 'GET',
    url: 'health',
    summary: 'Liveness and database check',
    response: healthSchema,
    handler: async () => {
      await checkDatabase(db);
      return { status: 'ok' as const, db: 'ok' as const, version };
    },
  });
}
