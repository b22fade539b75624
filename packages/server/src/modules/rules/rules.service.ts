import type { z } from 'zod';
import type { upsertAssignRuleSchema, upsertColorRuleSchema } from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { membersAmong } from '../groups/index.js';
import { bucketsOfGroup } from '../organizations/index.js';
import * as store from './rules.store.js';

type AssignInput = z.infer<typeof upsertAssignRuleSchema>;
type ColorInput = z.infer<typeof upsertColorRuleSchema>;

function presentAssign(r: Awaited<ReturnType<typeof store.insertAssignRule>>) {
  return {
    id: r.id,
    name: r.name,
    bucketIds: r.bucketIds,
    doctorId: r.doctorId,
    modality: r.modality,
    memberIds: r.memberIds,
    priority: r.priority,
  };
}
function presentColor(r: Awaited<ReturnType<typeof store.insertColorRule>>) {
  return {
    id: r.id,
    name: r.name,
    priority: r.priority,
    foreColor: r.foreColor,
    backgroundColor: r.backgroundColor,
    matchField: r.matchField,
    value: r.value,
    index: r.index,
  };
}

/** Assign rules and color rules: stored and served here, applied by the exam and report modules. */
export class RulesService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  private audit(actor: AccountRow, groupId: string, action: string, targetId: string, ctx: AuditContext) {
    return writeAudit(this.db, ctx, {
      action,
      category: 'operation',
      outcome: 'success',
      actorId: actor.id,
      actorUsername: actor.username,
      targetType: 'rule',
      targetId,
      details: { groupId },
    });
  }

  /** Every organization and person a rule names must belong to the group. */
  private async checkAssign(groupId: string, input: AssignInput) {
    const own = new Set((await bucketsOfGroup(this.db, groupId)).map((b) => b.id));
    const foreignBuckets = input.bucketIds.filter((id) => !own.has(id));
    const people = [...new Set([...input.memberIds, ...(input.doctorId ? [input.doctorId] : [])])];
    const members = await membersAmong(this.db, groupId, people);
    const foreignPeople = people.filter((id) => !members.has(id));
    if (foreignBuckets.length || foreignPeople.length) {
      throw errors.validation('A rule names only organizations and members of its group', {
        bucketIds: foreignBuckets,
        accountIds: foreignPeople,
      });
    }
  }

  async assignRules(groupId: string) {
    return (await store.listAssignRules(this.db, groupId)).map(presentAssign);
  }
  async addAssignRule(actor: AccountRow, groupId: string, input: AssignInput, ctx: AuditContext) {
    await this.checkAssign(groupId, input);
    const row = await store.insertAssignRule(this.db, groupId, input, this.clock.now());
    await this.audit(actor, groupId, 'rule.assign.create', row.id, ctx);
    return presentAssign(row);
  }
  async updateAssignRule(actor: AccountRow, groupId: string, id: string, input: AssignInput, ctx: AuditContext) {
    await this.checkAssign(groupId, input);
    const row = await store.updateAssignRule(this.db, groupId, id, input);
    if (!row) throw errors.notFound('Rule');
    await this.audit(actor, groupId, 'rule.assign.update', id, ctx);
    return presentAssign(row);
  }
  async removeAssignRule(actor: AccountRow, groupId: string, id: string, ctx: AuditContext) {
    if (!(await store.deleteAssignRule(this.db, groupId, id))) throw errors.notFound('Rule');
    await this.audit(actor, groupId, 'rule.assign.delete', id, ctx);
  }

  async colorRules(groupId: string) {
    return (await store.listColorRules(this.db, groupId)).map(presentColor);
  }
  async addColorRule(actor: AccountRow, groupId: string, input: ColorInput, ctx: AuditContext) {
    const row = await store.insertColorRule(this.db, groupId, input, this.clock.now());
    await this.audit(actor, groupId, 'rule.color.create', row.id, ctx);
    return presentColor(row);
  }
  async updateColorRule(actor: AccountRow, groupId: string, id: string, input: ColorInput, ctx: AuditContext) {
    const row = await store.updateColorRule(this.db, groupId, id, input);
    if (!row) throw errors.notFound('Rule');
    await this.audit(actor, groupId, 'rule.color.update', id, ctx);
    return presentColor(row);
  }
  async removeColorRule(actor: AccountRow, groupId: string, id: string, ctx: AuditContext) {
    if (!(await store.deleteColorRule(this.db, groupId, id))) throw errors.notFound('Rule');
    await this.audit(actor, groupId, 'rule.color.delete', id, ctx);
  }
}
