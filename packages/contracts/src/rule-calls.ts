import { z } from 'zod';
import { defineCall } from './call.js';
import { assignRuleSchema, colorRuleSchema, upsertAssignRuleSchema, upsertColorRuleSchema } from './tenancy.js';

const groupParams = z.object({ groupId: z.string() });
const ruleParams = groupParams.extend({ ruleId: z.string() });

/** The four calls of one kind of group rule: list, add (201), change and remove (204). */
function ruleCalls<R extends z.ZodType, U extends z.ZodType>(
  list: 'groups/:groupId/rules' | 'groups/:groupId/color-rules',
  rule: R,
  upsert: U,
) {
  const one = `${list}/:ruleId` as const;
  return {
    list: defineCall({ method: 'GET', path: list, params: groupParams, answer: z.array(rule) }),
    add: defineCall({ method: 'POST', path: list, params: groupParams, body: upsert, answer: rule, status: 201 }),
    update: defineCall({ method: 'PUT', path: one, params: ruleParams, body: upsert, answer: rule }),
    remove: defineCall({ method: 'DELETE', path: one, params: ruleParams, status: 204 }),
  };
}

/**
 * A group's assign rules and color rules (spec 001 §7 "Rules"; color rules: lower priority number
 * wins). The server's routes (modules/rules/rules.routes.ts) and the web's client (api/groups.ts)
 * are built from these.
 */
export const assignRuleCalls = ruleCalls('groups/:groupId/rules', assignRuleSchema, upsertAssignRuleSchema);
export const colorRuleCalls = ruleCalls('groups/:groupId/color-rules', colorRuleSchema, upsertColorRuleSchema);
