import {
  CONSULTATION_MAX,
  consultationLinkAddSchema,
  consultationMembersSetSchema,
  consultationPastQuerySchema,
  linkableAsHistory,
  type ConsultationDetail,
  type ConsultationListItem,
  type ConsultationStatus,
} from '@yyp/contracts';
import type { z } from 'zod';
import { findBucketFacts, loadCallerAccess } from '../../platform/access.js';
import { effectiveActions } from '../../platform/authz.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { type ConsultationAccess, type ConsultationActor } from './consultation-access.js';
import { findConsultation } from './consultation-access.store.js';
import { pastConsultations } from './consultations-list.store.js';
import { detailOf, listItems } from './consultations.presenter.js';
import type { ConsultationsService } from './consultations.service.js';
import * as store from './consultations.store.js';
import { requireTargetAccounts } from './consultation-members.js';

const notLinkable = (message: string, details: Record<string, unknown>) =>
  new AppError('ConsultationNotLinkable', message, details);

/**
 * The consultation's members (experts and joiners of the target organization), its traces, and its
 * linked history consultations (spec 000 §4: only a completed one of the same group, not itself),
 * read through the link at /consultations/{id}/related/{linkId}.
 */
export class ConsultationPartsService {
  private readonly access: ConsultationAccess;

  constructor(
    private readonly db: Db,
    private readonly consultations: ConsultationsService,
  ) {
    this.access = consultations.access;
  }

  /** PUT consultations/{id}/members: the target names the experts and joiners (its own accounts). */
  async setMembers(
    actor: ConsultationActor,
    id: string,
    input: z.input<typeof consultationMembersSetSchema>,
  ): Promise<ConsultationDetail> {
    const body = consultationMembersSetSchema.parse(input);
    const experts = [...new Set(body.experts)];
    const joiners = [...new Set(body.joiners)];
    const both = experts.filter((a) => joiners.includes(a));
    if (both.length > 0) {
      throw errors.validation('An account is either an expert or a joiner', { field: 'joiners', accountIds: both });
    }
    const { row } = await this.access.require(actor, id, 'setMembers');
    await requireTargetAccounts(this.db, row.targetBucketId, [...experts, ...joiners], 'experts');
    return this.consultations.change(actor, id, 'setMembers', body.version, async (tx, _row, now) => {
      await store.replaceMembers(
        tx,
        id,
        [
          ...experts.map((accountId) => ({ accountId, role: 'expert' as const })),
          ...joiners.map((accountId) => ({ accountId, role: 'joiner' as const })),
        ],
        now,
      );
      return { changes: {}, trace: { experts, joiners } };
    });
  }

  /** GET consultations/{id}/members/candidates: the target organization's accounts; canWrite = consultation_submitSuggestion there. */
  async memberCandidates(
    actor: ConsultationActor,
    id: string,
  ): Promise<{ data: { accountId: string; name: string; canWrite: boolean }[] }> {
    const { row } = await this.access.require(actor, id, 'setMembers');
    const bucket = await findBucketFacts(this.db, row.targetBucketId);
    if (!bucket) throw errors.notFound('Organization');
    const accounts = await store.bucketAccounts(this.db, row.targetBucketId);
    const data = [];
    for (const a of accounts) {
      const access = await loadCallerAccess(this.db, a.accountId);
      data.push({ ...a, canWrite: effectiveActions(access, bucket).has('consultation_submitSuggestion') });
    }
    return { data };
  }

  /** GET consultations/{id}/traces: every step with who and when. */
  async traces(actor: ConsultationActor, id: string) {
    await this.access.require(actor, id, 'view');
    const rows = await store.tracesOf(this.db, id);
    return {
      data: rows.map((t) => ({
        id: t.id,
        action: t.action,
        accountName: t.accountName,
        at: t.at.toISOString(),
        detail: (t.detail ?? {}) as Record<string, unknown>,
      })),
    };
  }

  /** POST consultations/{id}/links: a completed consultation of the same group (not itself) as history. */
  async addLink(
    actor: ConsultationActor,
    id: string,
    input: z.input<typeof consultationLinkAddSchema>,
  ): Promise<ConsultationDetail> {
    const { linkedId } = consultationLinkAddSchema.parse(input);
    const { row } = await this.access.require(actor, id, 'link');
    const linked = await findConsultation(this.db, linkedId);
    if (!linked || linked.groupId !== row.groupId) throw errors.notFound('Consultation');
    if (linked.id === row.id) throw notLinkable('A consultation cannot be linked to itself', { linkedId });
    if (!linkableAsHistory(linked.status as ConsultationStatus)) {
      throw notLinkable('Only a completed consultation can be linked as history', {
        linkedId,
        status: linked.status,
      });
    }
    return this.consultations.change(actor, id, 'link', null, async (tx, _row, now) => {
      if ((await store.countLinks(tx, id)) >= CONSULTATION_MAX.links) {
        throw errors.validation(`At most ${CONSULTATION_MAX.links} consultations can be linked`, {
          field: 'linkedId',
          limit: CONSULTATION_MAX.links,
        });
      }
      if (!(await store.insertLink(tx, { consultationId: id, linkedId, createdBy: actor.account.id, created: now }))) {
        throw errors.conflict('The consultation is linked already');
      }
      return { changes: {}, trace: { linkedId, title: linked.title } };
    });
  }

  /** DELETE consultations/{id}/links/{linkId}. */
  async removeLink(actor: ConsultationActor, id: string, linkId: string): Promise<ConsultationDetail> {
    await this.access.require(actor, id, 'unlink');
    if (!(await store.findLink(this.db, id, linkId))) throw errors.notFound('Link');
    return this.consultations.change(actor, id, 'unlink', null, async (tx) => {
      const gone = await store.deleteLink(tx, id, linkId);
      if (!gone) throw errors.notFound('Link');
      return { changes: {}, trace: { linkId, linkedId: gone.linkedId } };
    });
  }

  /**
   * GET consultations/{id}/related/{linkId}: the linked consultation, read through the link by whoever
   * may view the consultation holding it (with that caller's roles there; nothing to do on it). Audited.
   */
  async related(actor: ConsultationActor, id: string, linkId: string): Promise<ConsultationDetail> {
    const holder = await this.access.require(actor, id, 'view');
    const link = await store.findLink(this.db, id, linkId);
    const linked = link ? await findConsultation(this.db, link.linkedId) : undefined;
    if (!link || !linked) throw errors.notFound('Link');
    const own = await this.access.factsOf(actor, linked);
    await this.consultations.audit(
      actor,
      'consultation.read_related',
      linked,
      { through: id, linkId },
      this.consultations.sideBucket(holder),
    );
    const detail = await detailOf(this.db, own.roles.length > 0 ? own : { ...own, roles: holder.roles });
    return own.roles.length > 0 ? detail : { ...detail, can: ['view'] };
  }

  /** GET consultations/past?consultationId: completed ones of the group, the same patient's first, not linked yet. */
  async past(
    actor: ConsultationActor,
    input: z.input<typeof consultationPastQuerySchema>,
  ): Promise<{ data: ConsultationListItem[] }> {
    const q = consultationPastQuerySchema.parse(input);
    const { row } = await this.access.require(actor, q.consultationId, 'link');
    const rows = await pastConsultations(this.db, {
      groupId: row.groupId,
      consultationId: row.id,
      patientName: row.patientName,
      ...(q.keyword ? { keyword: q.keyword } : {}),
      limit: q.limit,
    });
    return { data: await listItems(this.db, rows) };
  }
}
