import { PgTransaction } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { Db } from './db.js';
import { auditLogs } from '../db/schema.js';

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

type AuditRow = typeof auditLogs.$inferInsert;

/**
 * Group commit for audit rows written outside a transaction: a row is inserted at once when no
 * insert is in flight; rows that arrive while one is in flight go together in the next insert.
 * Every caller still waits until its own row is committed, so an answer is never sent before its
 * audit row exists; under load the rows share round trips instead of queueing one by one. A batch
 * that fails is retried row by row so one bad row fails only its own call.
 */
class AuditWriter {
  private pending: { row: AuditRow; done: (err?: unknown) => void }[] = [];
  private flushing = false;

  constructor(private readonly db: Db) {}

  write(row: AuditRow): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ row, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, AUDIT_BATCH_MAX);
        try {
          await this.db.insert(auditLogs).values(batch.map((b) => b.row));
          for (const b of batch) b.done();
        } catch (err) {
          if (batch.length === 1) {
            batch[0]!.done(err);
            continue;
          }
          for (const b of batch) {
            try {
              await this.db.insert(auditLogs).values(b.row);
              b.done();
            } catch (one) {
              b.done(one);
            }
          }
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}

const AUDIT_BATCH_MAX = 200;

/**
 * Whether operation rows are written (the domain's auditLogOn, spec 000 §10). The platform reads
 * no module's tables: app.ts hands the domain module's reader in (setOperationAuditGate); until it
 * does, operation rows are written.
 */
let operationRowsOn: (db: Db) => Promise<boolean> = async () => true;
export function setOperationAuditGate(gate: (db: Db) => Promise<boolean>): void {
  operationRowsOn = gate;
}
const writers = new WeakMap<Db, AuditWriter>();

/** Writes one audit row; pass a transaction as `db` to commit it with the change it records. */
export async function writeAudit(db: Db, ctx: AuditContext, entry: AuditEntry): Promise<void> {
  if (entry.category === 'operation' && !(await operationRowsOn(db))) return;
  const row: AuditRow = {
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
  };
  if (db instanceof PgTransaction) {
    await db.insert(auditLogs).values(row);
    return;
  }
  let writer = writers.get(db);
  if (!writer) {
    writer = new AuditWriter(db);
    writers.set(db, writer);
  }
  await writer.write(row);
}

/** The audit entry of `actor`'s successful `action` on the account `accountId`. */
export function accountAudit(
  actor: { id: string; username: string },
  action: string,
  accountId: string,
  details: Record<string, unknown>,
): AuditEntry {
  return {
    action,
    outcome: 'success',
    actorId: actor.id,
    actorUsername: actor.username,
    targetType: 'account',
    targetId: accountId,
    details,
  };
}

/** The audit entry of `actor`'s successful action: `entry` with the outcome and the actor filled in. */
export function actorAudit(
  actor: { id: string; username: string },
  entry: Omit<AuditEntry, 'outcome' | 'actorId' | 'actorUsername'>,
): AuditEntry {
  return { ...entry, outcome: 'success', actorId: actor.id, actorUsername: actor.username };
}

/** The audit entry of a refusal a service decides, written as the route-level check writes it. */
export function denialAudit(
  actor: { id: string; username: string },
  bucketId: string | undefined,
  needs: string,
  decision: string,
): AuditEntry {
  return {
    action: 'permission.denied',
    outcome: 'denied',
    actorId: actor.id,
    actorUsername: actor.username,
    ...(bucketId ? { bucketId } : {}),
    details: { action: needs, decision },
  };
}
