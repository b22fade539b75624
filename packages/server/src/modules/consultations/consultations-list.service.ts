import {
  consultationFiltersSchema,
  consultationPageQuerySchema,
  consultationQuerySchema,
  earningsInstants,
  type ConsultationBuckets,
  type ConsultationFilters,
  type ConsultationListItem,
  type ConsultationPage,
  type ConsultationQuery,
} from '@yyp/contracts';
import type { z } from 'zod';
import { callerScope } from '../../platform/access.js';
import { canSee } from '../../platform/authz.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { consultationActionsIn, type ConsultationActor } from './consultation-access.js';
import { priceAt } from './consultation-fee.js';
import * as settings from './consultation-settings.store.js';
import { countConsultations, listConsultations, type ListFilter, type Visibility } from './consultations-list.store.js';
import { listItems } from './consultations.presenter.js';
import * as store from './consultations.store.js';

/**
 * The consultation lists (query and the background poll, query/count, query-page) and where the
 * caller may request (buckets). A caller sees the consultations of organizations where it holds a
 * consultation action (their requests), those received where it holds consultation_update, those it
 * takes part in, and its own requests; newest first.
 */
export class ConsultationsListService {
  constructor(private readonly db: Db) {}

  async query(actor: ConsultationActor, input: ConsultationQuery): Promise<{ data: ConsultationListItem[] }> {
    const body = consultationQuerySchema.parse(input);
    const [v, f] = await Promise.all([this.visibility(actor), Promise.resolve(this.filter(body.filter))]);
    return { data: await listItems(this.db, await listConsultations(this.db, v, f, body.skip, body.limit)) };
  }

  async count(actor: ConsultationActor, input: { filter?: ConsultationFilters }): Promise<{ count: number }> {
    const filter = consultationFiltersSchema.parse(input.filter ?? {});
    return { count: await countConsultations(this.db, await this.visibility(actor), this.filter(filter)) };
  }

  async page(actor: ConsultationActor, input: z.input<typeof consultationPageQuerySchema>): Promise<ConsultationPage> {
    const body = consultationPageQuerySchema.parse(input);
    const v = await this.visibility(actor);
    const f = this.filter(body.filter);
    const [rows, count] = await Promise.all([
      listConsultations(this.db, v, f, body.skip, body.limit),
      countConsultations(this.db, v, f),
    ]);
    return { data: await listItems(this.db, rows), count };
  }

  /**
   * GET consultations/buckets: the organizations where the caller may request (consultation_create,
   * in a group that turned consultations on) and, for each of their groups, its consultation targets
   * (the default marked) with the accounts that may write the experts' result there.
   */
  async buckets(actor: ConsultationActor): Promise<ConsultationBuckets> {
    const scope = await callerScope(this.db, actor.account);
    const held = scope.facts.filter((b) => consultationActionsIn(scope.access, b).has('consultation_create'));
    const on = await settings.consultationGroupsOn(
      this.db,
      held.map((b) => b.groupId),
    );
    const sourceFacts = held.filter((b) => on.has(b.groupId));
    const groupIds = [...new Set(sourceFacts.map((b) => b.groupId))];
    const [names, targets, defaults] = await Promise.all([
      store.bucketNames(
        this.db,
        sourceFacts.map((b) => b.id),
      ),
      settings.targetsOf(this.db, groupIds),
      settings.defaultTargetsOf(this.db, groupIds),
    ]);
    const targetList: ConsultationBuckets['targets'] = [];
    const seen = new Set<string>();
    const wanted = [...targets.map((t) => ({ groupId: t.groupId, bucketId: t.bucketId }))];
    for (const [groupId, bucketId] of defaults) wanted.push({ groupId, bucketId });
    for (const { groupId, bucketId } of wanted) {
      const key = `${groupId}/${bucketId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const brief = await settings.bucketBrief(this.db, bucketId);
      if (!brief) continue;
      const [experts, price] = await Promise.all([store.bucketAccounts(this.db, bucketId), priceAt(this.db, bucketId)]);
      targetList.push({
        bucketId,
        name: brief.name,
        groupId,
        isDefault: defaults.get(groupId) === bucketId,
        experts: experts.map((e) => ({ accountId: e.accountId, name: e.name })),
        price,
      });
    }
    return {
      sources: sourceFacts.map((b) => ({ bucketId: b.id, name: names.get(b.id) ?? '', groupId: b.groupId })),
      targets: targetList,
    };
  }

  /** Whose consultations the caller sees, from its memberships. */
  private async visibility(actor: ConsultationActor): Promise<Visibility> {
    const scope = await callerScope(this.db, actor.account);
    const visible = scope.facts.filter((b) => canSee(scope.access, b));
    const sourceIds: string[] = [];
    const targetIds: string[] = [];
    for (const b of visible) {
      const actions = consultationActionsIn(scope.access, b);
      if (actions.size > 0) sourceIds.push(b.id);
      if (actions.has('consultation_update')) targetIds.push(b.id);
    }
    return { accountId: actor.account.id, sourceIds, targetIds, visibleIds: visible.map((b) => b.id) };
  }

  private filter(f: z.output<typeof consultationFiltersSchema>): ListFilter {
    const out: ListFilter = {};
    if (f.status) out.status = f.status.equal;
    if (f.keyword) out.keyword = f.keyword;
    if (f.sourceBucketId) out.sourceBucketId = f.sourceBucketId;
    if (f.targetBucketId) out.targetBucketId = f.targetBucketId;
    if (f.from && f.to && f.to < f.from) throw errors.validation('`to` is before `from`', { field: 'to' });
    if (f.from) out.from = earningsInstants(f.from, f.from).from;
    if (f.to) out.to = earningsInstants(f.to, f.to).to;
    if (f.mine) out.mine = true;
    return out;
  }
}
