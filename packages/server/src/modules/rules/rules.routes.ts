import { assignRuleSchema, colorRuleSchema, upsertAssignRuleSchema, upsertColorRuleSchema } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditContext } from '../../platform/audit.js';
import { defineRoute, type RawInput } from '../../platform/route.js';
import type { RulesService } from './rules.service.js';

const groupParams = z.object({ groupId: z.string() });
const ruleParams = groupParams.extend({ ruleId: z.string() });
const group = ({ params }: RawInput) => params.groupId;
const read = { power: 'group_read', group: group } as const;
const manage = { power: 'group_manage', group: group } as const;

export function ruleRoutes(app: FastifyInstance, rules: RulesService): void {
  defineRoute(app, {
    method: 'GET',
    url: 'groups/:groupId/rules',
    summary: 'Assign rules',
    auth: read,
    params: groupParams,
    response: z.array(assignRuleSchema),
    handler: ({ groupId }) => rules.assignRules(groupId),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'groups/:groupId/rules',
    summary: 'Add an assign rule',
    auth: manage,
    params: groupParams,
    status: 201,
    body: upsertAssignRuleSchema,
    response: assignRuleSchema,
    handler: ({ account, groupId, body, request }) =>
      rules.addAssignRule(account, groupId, body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'PUT',
    url: 'groups/:groupId/rules/:ruleId',
    summary: 'Change an assign rule',
    auth: manage,
    params: ruleParams,
    body: upsertAssignRuleSchema,
    response: assignRuleSchema,
    handler: ({ account, groupId, params, body, request }) =>
      rules.updateAssignRule(account, groupId, params.ruleId, body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'groups/:groupId/rules/:ruleId',
    summary: 'Remove an assign rule',
    auth: manage,
    params: ruleParams,
    status: 204,
    handler: ({ account, groupId, params, request }) =>
      rules.removeAssignRule(account, groupId, params.ruleId, auditContext(request)),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'groups/:groupId/color-rules',
    summary: 'Color rules (lower priority number wins)',
    auth: read,
    params: groupParams,
    response: z.array(colorRuleSchema),
    handler: ({ groupId }) => rules.colorRules(groupId),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'groups/:groupId/color-rules',
    summary: 'Add a color rule',
    auth: manage,
    params: groupParams,
    status: 201,
    body: upsertColorRuleSchema,
    response: colorRuleSchema,
    handler: ({ account, groupId, body, request }) => rules.addColorRule(account, groupId, body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'PUT',
    url: 'groups/:groupId/color-rules/:ruleId',
    summary: 'Change a color rule',
    auth: manage,
    params: ruleParams,
    body: upsertColorRuleSchema,
    response: colorRuleSchema,
    handler: ({ account, groupId, params, body, request }) =>
      rules.updateColorRule(account, groupId, params.ruleId, body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'groups/:groupId/color-rules/:ruleId',
    summary: 'Remove a color rule',
    auth: manage,
    params: ruleParams,
    status: 204,
    handler: ({ account, groupId, params, request }) =>
      rules.removeColorRule(account, groupId, params.ruleId, auditContext(request)),
  });
}
