import { patientCalls, registryCalls, scheduledExamCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import type { FastifyRequest } from 'fastify';
import type { AccountRow } from '../../db/schema.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { RegistryService } from './registry.service.js';

/**
 * The front desk's calls (contracts registryCalls, scheduledExamCalls, patientCalls). Each names
 * its organization in the body or through a row, so the service checks the desk actions there
 * (registry.access.ts) and the status machine (contracts registry-rules.ts) before anything else.
 */
export function registryRoutes(app: FastifyInstance, registry: RegistryService): void {
  const caller = ({ account, request }: { account: AccountRow; request: FastifyRequest }) => ({
    account,
    ctx: auditContext(request),
  });
  defineCallRoute(app, registryCalls.buckets, {
    summary: 'The organizations where the caller registers, arrives or schedules patients',
    auth: 'account',
    handler: ({ account }) => registry.buckets(account),
  });
  defineCallRoute(app, registryCalls.query, {
    summary: "The organization's scheduled exams (page size 10, newest registration first, the desk's own by default)",
    auth: 'account',
    handler: (input) => registry.query(caller(input), input.params.bucketId, input.body),
  });
  defineCallRoute(app, registryCalls.create, {
    summary: 'Register a patient for one to five exams',
    auth: 'account',
    handler: (input) => registry.create(caller(input), input.body),
  });
  defineCallRoute(app, registryCalls.update, {
    summary: 'Change a registration (at the version read)',
    auth: 'account',
    handler: (input) => registry.update(caller(input), input.body),
  });
  defineCallRoute(app, registryCalls.arrive, {
    summary: 'Record the arrival of scheduled exams',
    auth: 'account',
    handler: (input) => registry.arrive(caller(input), input.body.ids),
  });
  defineCallRoute(app, registryCalls.findByOrderId, {
    summary: 'A registration with its scheduled exams',
    auth: 'account',
    handler: (input) => registry.findByOrderId(caller(input), input.query.orderId),
  });
  defineCallRoute(app, registryCalls.status, {
    summary: 'Arrive, cancel the arrival, revoke or confirm one scheduled exam',
    auth: 'account',
    handler: (input) => registry.act(caller(input), input.body.id, input.body.action, input.body.reason),
  });
  defineCallRoute(app, registryCalls.confirm, {
    summary: 'Confirm scheduled exams performed (at most 15)',
    auth: 'account',
    handler: (input) => registry.confirm(caller(input), input.body.ids),
  });
  defineCallRoute(app, registryCalls.passCode, {
    summary: 'The registration a label or referral form code names',
    auth: 'account',
    handler: (input) => registry.byPassCode(caller(input), input.params.code),
  });
  defineCallRoute(app, scheduledExamCalls.remove, {
    summary: 'Delete a scheduled exam not yet arrived',
    auth: 'account',
    handler: (input) => registry.remove(caller(input), input.params.id),
  });
  defineCallRoute(app, scheduledExamCalls.revoke, {
    summary: 'Cancel an appointment (with a reason)',
    auth: 'account',
    handler: (input) => registry.act(caller(input), input.params.id, 'revoke', input.body.reason),
  });
  defineCallRoute(app, scheduledExamCalls.confirm, {
    summary: 'Confirm one scheduled exam performed',
    auth: 'account',
    handler: (input) => registry.act(caller(input), input.params.id, 'confirm'),
  });
  defineCallRoute(app, patientCalls.query, {
    summary: "The patients of the organization's group",
    auth: 'account',
    handler: (input) =>
      registry.patients(caller(input), input.body.bucketId, input.body.q, {
        skip: input.body.skip,
        limit: input.body.limit,
      }),
  });
  defineCallRoute(app, patientCalls.past, {
    summary: "A patient's registrations",
    auth: 'account',
    handler: (input) => registry.past(caller(input), input.params.id),
  });
}
