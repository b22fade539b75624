import { bucketExtensionCalls, registryOrderCalls, scheduledExamExtensionCalls } from '@yyp/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountRow } from '../../db/schema.js';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { RawInput } from '../../platform/route.js';
import type { RegistryExtensionsService } from './registry-extensions.service.js';
import type { RegistryOrdersService } from './registry-orders.service.js';
import { sendXlsx } from '../../platform/xlsx.js';

const bucket = ({ params }: RawInput) => params.bucketId;
/** The organization's fields and steps are read by its members (the desk fills them in). */
const read = { action: 'bucket_read', owner: bucket } as const;

/**
 * The desk's schedule export, external orders and exam extension fields (contracts
 * registryOrderCalls, scheduledExamExtensionCalls, bucketExtensionCalls). Calls that name their
 * organization in the body or through a scheduled exam check the desk actions in the service
 * (registry.access.ts), as the registry's other calls do.
 */
export function registryOrderRoutes(
  app: FastifyInstance,
  orders: RegistryOrdersService,
  extensions: RegistryExtensionsService,
): void {
  const caller = ({ account, request }: { account: AccountRow; request: FastifyRequest }) => ({
    account,
    ctx: auditContext(request),
  });
  defineCallRoute(app, registryOrderCalls.exportSchedules, {
    summary: "The organization's scheduled exams as .xlsx (the registry query's filters; at most 3,000)",
    auth: 'account',
    handler: async (input) => {
      const file = await orders.exportSchedules(caller(input), input.body);
      return sendXlsx(input.reply, file);
    },
  });
  defineCallRoute(app, registryOrderCalls.serviceOrder, {
    summary: 'An order placed from outside: a registration whose exams are Registered (idempotent on orderId)',
    auth: 'account',
    handler: (input) => orders.serviceOrder(caller(input), input.body),
  });
  defineCallRoute(app, scheduledExamExtensionCalls.get, {
    summary: "A scheduled exam's extension values and its organization's exam extension fields",
    auth: 'account',
    handler: (input) => extensions.get(caller(input), input.params.id),
  });
  defineCallRoute(app, scheduledExamExtensionCalls.upsert, {
    summary: "Set one of a scheduled exam's extension values",
    auth: 'account',
    handler: (input) => extensions.upsert(caller(input), input.params.id, input.body.configId, input.body.value),
  });
  defineCallRoute(app, scheduledExamExtensionCalls.remove, {
    summary: "Clear one of a scheduled exam's extension values",
    auth: 'account',
    handler: (input) => extensions.remove(caller(input), input.params.id, input.params.extensionId),
  });
  defineCallRoute(app, bucketExtensionCalls.list, {
    summary: "The organization's exam extension fields",
    auth: read,
    handler: ({ bucket: b }) => extensions.bucketConfigs(b.id),
  });
  defineCallRoute(app, bucketExtensionCalls.upsert, {
    summary: 'Create or change an exam extension field of an organization (bucket_manage there)',
    auth: 'account',
    handler: (input) => extensions.upsertConfig(caller(input), input.body),
  });
  defineCallRoute(app, bucketExtensionCalls.orgs, {
    summary: "The caller's organizations that have exam extension fields, with them",
    auth: 'account',
    handler: ({ account }) => extensions.orgsWithExtensions(account),
  });
  defineCallRoute(app, bucketExtensionCalls.steps, {
    summary: "The steps of the organization's procedures, flattened",
    auth: read,
    handler: ({ bucket: b }) => extensions.steps(b.id),
  });
}
