import { consultationCalls as calls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { defineCallRoute } from '../../platform/call-route.js';
import type { Db } from '../../platform/db.js';
import type { RawInput } from '../../platform/route.js';
import { actorOf, consultationSide } from './consultation-access.js';
import type { ConsultationPartsService } from './consultation-parts.service.js';
import type { ConsultationSettingsService } from './consultation-settings.service.js';
import type { ConsultationsListService } from './consultations-list.service.js';
import type { ConsultationsService } from './consultations.service.js';

export interface ConsultationServices {
  consultations: ConsultationsService;
  lists: ConsultationsListService;
  parts: ConsultationPartsService;
  settings: ConsultationSettingsService;
}

/**
 * The consultation calls (contracts consultation-calls.ts) but its files, exams, print and export
 * (consultations-files.routes.ts). A call on one consultation names the caller's side of it as its
 * owner (404 for another tenant), then the service checks the op by the rules; the lists and the
 * request name their organizations in the body and are checked by the service.
 */
export function consultationsRoutes(app: FastifyInstance, db: Db, s: ConsultationServices): void {
  const side = { action: 'bucket_read' as const, owner: consultationSide(db) };
  const group = ({ params }: RawInput) => params.groupId;

  defineCallRoute(app, calls.query, {
    summary: 'Consultations the caller sees (the list and the background poll), newest first',
    auth: 'account',
    handler: (input) => s.lists.query(actorOf(input), input.body),
  });
  defineCallRoute(app, calls.count, {
    summary: 'How many consultations the caller sees with these filters',
    auth: 'account',
    handler: (input) => s.lists.count(actorOf(input), input.body),
  });
  defineCallRoute(app, calls.page, {
    summary: 'A page of the consultations the caller sees, with the count',
    auth: 'account',
    handler: (input) => s.lists.page(actorOf(input), input.body),
  });
  defineCallRoute(app, calls.buckets, {
    summary: 'Where the caller may request a consultation (sources) and whom it may ask (targets with their experts)',
    auth: 'account',
    handler: (input) => s.lists.buckets(actorOf(input)),
  });
  defineCallRoute(app, calls.past, {
    summary: 'Completed consultations of the group that may be linked as history (the same patient first)',
    auth: 'account',
    handler: (input) => s.parts.past(actorOf(input), input.query),
  });
  defineCallRoute(app, calls.create, {
    summary: "Request a consultation (consultation_create in the source) of one of the group's consultation targets",
    auth: 'account',
    handler: (input) => s.consultations.create(actorOf(input), input.body),
  });

  defineCallRoute(app, calls.detail, {
    summary: 'A consultation with the roles and allowed ops of the caller (audited)',
    auth: side,
    handler: (input) => s.consultations.detail(actorOf(input), input.params.id),
  });
  defineCallRoute(app, calls.update, {
    summary: "The requester's fields, at the version read",
    auth: side,
    handler: (input) => s.consultations.update(actorOf(input), input.params.id, input.body),
  });
  defineCallRoute(app, calls.status, {
    summary: 'The target accepts (scheduled: an exam bound) or closes it (completed: the result written)',
    auth: side,
    handler: (input) => s.consultations.status(actorOf(input), input.params.id, input.body),
  });
  defineCallRoute(app, calls.cancel, {
    summary: 'Cancel with a reason (cannot be undone)',
    auth: side,
    handler: (input) => s.consultations.cancel(actorOf(input), input.params.id, input.body),
  });
  defineCallRoute(app, calls.delete, {
    summary: 'Delete a pending or canceled consultation (consultation_delete in the source)',
    auth: side,
    handler: (input) => s.consultations.remove(actorOf(input), input.params.id),
  });
  defineCallRoute(app, calls.suggestion, {
    summary: "An expert's suggestion and treatment plan",
    auth: side,
    handler: (input) => s.consultations.suggestion(actorOf(input), input.params.id, input.body),
  });
  defineCallRoute(app, calls.results, {
    summary: "The experts' result (not empty)",
    auth: side,
    handler: (input) => s.consultations.results(actorOf(input), input.params.id, input.body),
  });
  defineCallRoute(app, calls.rate, {
    summary: "The requester's rating of a completed consultation (once)",
    auth: side,
    handler: (input) => s.consultations.rate(actorOf(input), input.params.id, input.body),
  });
  defineCallRoute(app, calls.visit, {
    summary: 'The linked visit record',
    auth: side,
    handler: (input) => s.consultations.visit(actorOf(input), input.params.id, input.body),
  });
  defineCallRoute(app, calls.setMembers, {
    summary: "The experts and joiners (accounts of the target organization), named by the target's staff",
    auth: side,
    handler: (input) => s.parts.setMembers(actorOf(input), input.params.id, input.body),
  });
  defineCallRoute(app, calls.memberCandidates, {
    summary: "The target organization's accounts who may be named experts or joiners",
    auth: side,
    handler: (input) => s.parts.memberCandidates(actorOf(input), input.params.id),
  });
  defineCallRoute(app, calls.traces, {
    summary: 'Every step of the consultation with who and when',
    auth: side,
    handler: (input) => s.parts.traces(actorOf(input), input.params.id),
  });
  defineCallRoute(app, calls.addLink, {
    summary: 'Link a completed consultation of the group as history',
    auth: side,
    handler: (input) => s.parts.addLink(actorOf(input), input.params.id, input.body),
  });
  defineCallRoute(app, calls.removeLink, {
    summary: 'Remove a linked history consultation',
    auth: side,
    handler: (input) => s.parts.removeLink(actorOf(input), input.params.id, input.params.linkId),
  });
  defineCallRoute(app, calls.related, {
    summary: 'A linked history consultation, read through the link (audited)',
    auth: side,
    handler: (input) => s.parts.related(actorOf(input), input.params.id, input.params.linkId),
  });

  defineCallRoute(app, calls.targets, {
    summary: "The group's consultation targets (its default marked)",
    auth: { power: 'group_read', group },
    handler: ({ params }) => s.settings.targets(params.groupId),
  });
  defineCallRoute(app, calls.addTarget, {
    summary: 'Add a consultation target to the group',
    auth: { power: 'group_manage', group },
    handler: (input) => s.settings.addTarget(actorOf(input), input.params.groupId, input.body),
  });
  defineCallRoute(app, calls.removeTarget, {
    summary: 'Remove a consultation target from the group',
    auth: { power: 'group_manage', group },
    handler: (input) => s.settings.removeTarget(actorOf(input), input.params.groupId, input.params.bucketId),
  });
  defineCallRoute(app, calls.ratingConfig, {
    summary: "The group's rating labels and when a comment is required",
    auth: { power: 'group_read', group },
    handler: ({ params }) => s.settings.ratingConfig(params.groupId),
  });
  defineCallRoute(app, calls.saveRatingConfig, {
    summary: "Save the group's rating config at the version read",
    auth: { power: 'group_manage', group },
    handler: (input) => s.settings.saveRatingConfig(actorOf(input), input.params.groupId, input.body),
  });
}
