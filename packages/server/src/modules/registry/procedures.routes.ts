import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db.js';
import type { ProceduresService } from './procedures.service.js';

/** Procedure management's calls (contracts procedureCalls). */
export function procedureRoutes(_app: FastifyInstance, _db: Db, _procedures: ProceduresService): void {}
