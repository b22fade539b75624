import crypto from 'node:crypto';
import { type reportTableColorBodySchema, type ReportTableColor } from '@yyp/contracts';
import type { z } from 'zod';
import type { AccountRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { presentTableColor } from './report-safety.presenter.js';
import * as store from './table-colors.store.js';

type Body = z.output<typeof reportTableColorBodySchema>;

/**
 * Report table colours (spec 001 §7 report-table-color): a group's row colours for report lists,
 * matched on report status, open critical value, positive finding or urgency; lower priority
 * first. Members read them (group_read), group admins write them (group_manage): both checked by
 * the routes, and every statement here is scoped to the authorized group.
 */
export class TableColorsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  private audit(db: Db, account: AccountRow, ctx: AuditContext, action: string, groupId: string, id: string) {
    return writeAudit(db, ctx, {
      action,
      outcome: 'success',
      category: 'operation',
      actorId: account.id,
      actorUsername: account.username,
      targetType: 'report_table_color',
      targetId: id,
      details: { groupId },
    });
  }

  async list(groupId: string): Promise<{ items: ReportTableColor[] }> {
    return { items: (await store.listTableColors(this.db, groupId)).map(presentTableColor) };
  }

  async add(account: AccountRow, groupId: string, body: Body, ctx: AuditContext): Promise<ReportTableColor> {
    return this.db.transaction(async (tx) => {
      const row = await store.insertTableColor(tx, { id: crypto.randomUUID(), groupId, ...body }, this.clock.now());
      await this.audit(tx, account, ctx, 'report_table_color.create', groupId, row.id);
      return presentTableColor(row);
    });
  }

  async update(
    account: AccountRow,
    groupId: string,
    id: string,
    body: Body,
    ctx: AuditContext,
  ): Promise<ReportTableColor> {
    return this.db.transaction(async (tx) => {
      const row = await store.updateTableColor(tx, groupId, id, body);
      if (!row) throw errors.notFound('Report table colour');
      await this.audit(tx, account, ctx, 'report_table_color.update', groupId, id);
      return presentTableColor(row);
    });
  }

  async remove(account: AccountRow, groupId: string, id: string, ctx: AuditContext): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!(await store.deleteTableColor(tx, groupId, id))) throw errors.notFound('Report table colour');
      await this.audit(tx, account, ctx, 'report_table_color.delete', groupId, id);
    });
  }
}
