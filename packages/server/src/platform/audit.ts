import type { FastifyRequest } from 'fastify';
import type { Db } from './db.js';
import { auditLogs } from '../db/schema.js';
import { getDomainConfig } from '../modules/domain/domain.store.js';

export type AuditOutcome = 'success' | 'failure' | 'denied';

export interface AuditEntry {
  action: string;
  /**
   * security (logins, denials, accounts, roles, memberships) and phi (patient data read, export,
   * share) rows are always written; operation rows (configuration edits) only while the domain's
   * auditLogOn is on.
   */
  category?: 'security' | 'phi' | 'operation';
  outcome: AuditOutcome;
  actorId?: string | null;
  actorUsername?: string | null;
  targetType?: string;
  targetId?: string;
  bucketId?: string;
  patientId?: string;
  details?: Record<string, unknown>;
}

export interface AuditContext {
  ip: string | null;
  userAgent: string | null;
}

export function auditContext(request: FastifyRequest): AuditContext {
  const ua = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof ua === 'string' ? ua.slice(0, 256) : null };
}

/** Writes one audit row; pass a transaction as `db` to commit it with the change it records. */
export async function writeAudit(db: Db, ctx: AuditContext, entry: AuditEntry): Promise<void> {
  if (entry.category === 'operation' && !(await getDomainConfig(db)).auditLogOn) return;
  await db.insert(auditLogs).values({
    action: entry.action,
    outcome: entry.outcome,
    actorId: entry.actorId ?? null,
    actorUsername: entry.actorUsername ?? null,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    bucketId: entry.bucketId ?? null,
    patientId: entry.patientId ?? null,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
    details: entry.details ?? null,
  });
}
