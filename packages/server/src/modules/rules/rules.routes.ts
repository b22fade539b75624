import { assignRuleCalls, colorRuleCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { RawInput } from '../../platform/route.js';
import type { RulesService } from './rules.service.js';

const group = ({ params }: RawInput) => params.groupId;
const read = { power: 'group_read', group } as const;
const manage = { power: 'group_manage', group } as const;

/** A group's assign rules and color rules (contracts assignRuleCalls, colorRuleCalls). */
export function ruleRoutes(app: FastifyInstance, rules: RulesService): void {
  defineCallRoute(app, assignRuleCalls.list, {
    summary: 'Assign rules',
    auth: read,
    handler: ({ groupId }) => rules.assignRules(groupId),
  });
  defineCallRoute(app, assignRuleCalls.add, {
    summary: 'Add an assign rule',
    auth: manage,
    handler: ({ account, groupId, body, request }) =>
      rules.addAssignRule(account, groupId, body, auditContext(request)),
  });
  defineCallRoute(app, assignRuleCalls.update, {
    summary: 'Change an assign rule',
    auth: manage,
    handler: ({ account, groupId, params, body, request }) =>
      rules.updateAssignRule(account, groupId, params.ruleId, body, auditContext(request)),
  });
  defineCallRoute(app, assignRuleCalls.remove, {
    summary: 'Remove an assign rule',
    auth: manage,
    handler: ({ account, groupId, params, request }) =>
      rules.removeAssignRule(account, groupId, params.ruleId, auditContext(request)),
  });
  defineCallRoute(app, colorRuleCalls.list, {
    summary: 'Color rules (lower priority number wins)',
    auth: read,
    handler: ({ groupId }) => rules.colorRules(groupId),
  });
  defineCallRoute(app, colorRuleCalls.add, {
    summary: 'Add a color rule',
    auth: manage,
    handler: ({ account, groupId, body, request }) => rules.addColorRule(account, groupId, body, auditContext(request)),
  });
  defineCallRoute(app, colorRuleCalls.update, {
    summary: 'Change a color rule',
    auth: manage,
    handler: ({ account, groupId, params, body, request }) =>
      rules.updateColorRule(account, groupId, params.ruleId, body, auditContext(request)),
  });
  defineCallRoute(app, colorRuleCalls.remove, {
    summary: 'Remove a color rule',
    auth: manage,
    handler: ({ account, groupId, params, request }) =>
      rules.removeColorRule(account, groupId, params.ruleId, auditContext(request)),
  });
}
