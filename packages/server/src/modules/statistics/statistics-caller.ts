import type { FastifyRequest } from 'fastify';
import type { AccountRow } from '../../db/schema.js';
import { auditContext, type AuditContext } from '../../platform/audit.js';

/** Who asks for a statistic, and from where (for the audit trail of PHI reads and refusals). */
export interface StatCaller {
  account: AccountRow;
  ctx: AuditContext;
}

/** The caller of a statistics route. */
export const statCaller = ({ account, request }: { account: AccountRow; request: FastifyRequest }): StatCaller => ({
  account,
  ctx: auditContext(request),
});
