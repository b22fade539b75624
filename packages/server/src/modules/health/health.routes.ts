import { healthCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { definePublicCallRoute } from '../../platform/call-route.js';
import type { Db } from '../../platform/db.js';
import { checkDatabase } from './health.service.js';

export function healthRoutes(app: FastifyInstance, db: Db, version: string): void {
  definePublicCallRoute(app, healthCalls.health, {
    summary: 'Liveness and database check',
    handler: async () => {
      await checkDatabase(db);
      return { status: 'ok' as const, db: 'ok' as const, version };
    },
  });
}
