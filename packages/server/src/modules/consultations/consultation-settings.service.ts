import {
  CONSULTATION_RATING_MAX,
  addConsultationTargetSchema,
  ratingConfigSchema,
  type RatingConfig,
} from '@yyp/contracts';
import type { z } from 'zod';
import { actorAudit, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import type { ConsultationActor } from './consultation-access.js';
import * as store from './consultation-settings.store.js';
import { NO_CONTEXT } from './consultations.service.js';

type Targets = { data: { bucketId: string; name: string; groupId: string; isDefault: boolean }[] };

/** The default rating config: default labels, no comment required. */
export const DEFAULT_RATING_CONFIG: RatingConfig = {
  labels: Array.from({ length: CONSULTATION_RATING_MAX }, () => ''),
  commentRequiredAtOrBelow: 0,
  version: 0,
};

/**
 * A group's consultation settings (spec 001 §7 groups' consultation-targets and rating-config): the
 * organizations its members may ask (the default is the group setting defaultConsultationBucketId),
 * and how ratings are labelled and when a comment is required. Read by members, changed by admins.
 */
export class ConsultationSettingsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async targets(groupId: string): Promise<Targets> {
    const [rows, defaults] = await Promise.all([
      store.targetsOf(this.db, [groupId]),
      store.defaultTargetsOf(this.db, [groupId]),
    ]);
    const def = defaults.get(groupId);
    return {
      data: rows.map((r) => ({
        bucketId: r.bucketId,
        name: r.name,
        groupId: r.bucketGroupId,
        isDefault: r.bucketId === def,
      })),
    };
  }

  async addTarget(
    actor: ConsultationActor,
    groupId: string,
    input: z.input<typeof addConsultationTargetSchema>,
  ): Promise<Targets> {
    const { bucketId } = addConsultationTargetSchema.parse(input);
    if (!(await store.bucketBrief(this.db, bucketId))) throw errors.notFound('Organization');
    await store.addTarget(this.db, groupId, bucketId, this.clock.now());
    await this.audit(actor, 'group.consultation_target.add', groupId, { bucketId });
    return this.targets(groupId);
  }

  async removeTarget(actor: ConsultationActor, groupId: string, bucketId: string): Promise<Targets> {
    if (!(await store.removeTarget(this.db, groupId, bucketId))) throw errors.notFound('Consultation target');
    await this.audit(actor, 'group.consultation_target.remove', groupId, { bucketId });
    return this.targets(groupId);
  }

  async ratingConfig(groupId: string): Promise<RatingConfig> {
    const row = await store.ratingConfigOf(this.db, groupId);
    if (!row) return DEFAULT_RATING_CONFIG;
    const saved = row.config as Partial<RatingConfig>;
    return {
      labels: Array.isArray(saved.labels) ? saved.labels.map(String) : DEFAULT_RATING_CONFIG.labels,
      commentRequiredAtOrBelow: Number(saved.commentRequiredAtOrBelow ?? 0),
      version: row.version,
    };
  }

  /** PUT: saved at the version read (0 before the first save); stale → 409 Conflict. */
  async saveRatingConfig(
    actor: ConsultationActor,
    groupId: string,
    input: z.input<typeof ratingConfigSchema>,
  ): Promise<RatingConfig> {
    const body = ratingConfigSchema.parse(input);
    const saved = await store.saveRatingConfig(
      this.db,
      groupId,
      { labels: body.labels, commentRequiredAtOrBelow: body.commentRequiredAtOrBelow },
      body.version,
      this.clock.now(),
    );
    if (!saved) throw errors.conflict('The rating config was changed since this version');
    await this.audit(actor, 'group.rating_config.save', groupId, {
      commentRequiredAtOrBelow: body.commentRequiredAtOrBelow,
    });
    return this.ratingConfig(groupId);
  }

  private audit(actor: ConsultationActor, action: string, groupId: string, details: Record<string, unknown>) {
    return writeAudit(
      this.db,
      actor.ctx ?? NO_CONTEXT,
      actorAudit(actor.account, { action, category: 'operation', targetType: 'group', targetId: groupId, details }),
    );
  }
}
