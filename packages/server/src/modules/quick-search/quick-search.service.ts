import {
  DEFAULT_QUICK_SEARCHES,
  defaultQuickSearchKey,
  MAX_QUICK_SEARCHES,
  type QuickSearch,
  type QuickSearchCriteria,
  type QuickSearchType,
} from '@yyp/contracts';
import crypto from 'node:crypto';
import type { AccountRow } from '../../db/schema.js';
import type { customSearches } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import * as store from './quick-search.store.js';

const present = (r: typeof customSearches.$inferSelect): QuickSearch => ({
  id: r.id,
  type: r.type as QuickSearchType,
  title: r.title,
  // Rows stored before the key existed are recognised by their default title (issue 20 item 9).
  titleKey: defaultQuickSearchKey(r),
  criteria: r.criteria,
  sort: r.sort,
});

const titleTaken = (title: string) =>
  new AppError('NameNotAvailable', `You already have a quick search titled ${JSON.stringify(title)}`, { title });

/**
 * Quick searches (spec 000 §5; spec 001 §7 custom-search): each user's own, never another's.
 * A user starts with three (today, yesterday, the last 7 days), stored with their key so that each
 * screen names them in its own language (the title kept is in the user's language then);
 * titles are unique per user and list; the last one cannot be deleted.
 */
export class QuickSearchService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** GET custom-search/my?type: the user's searches in order; the defaults on first use. */
  async mine(account: AccountRow, type: QuickSearchType): Promise<QuickSearch[]> {
    let rows = await store.listSearches(this.db, account.id, type);
    if (rows.length === 0) {
      const language = account.preferences.language ?? 'chs';
      await store.insertSearches(
        this.db,
        DEFAULT_QUICK_SEARCHES.map((d, i) => ({
          id: crypto.randomUUID(),
          accountId: account.id,
          type,
          title: d.titles[language],
          titleKey: d.key,
          criteria: { studyDate: { preset: d.preset }, filters: [], sorts: [] },
          sort: i,
        })),
        this.clock.now(),
      );
      rows = await store.listSearches(this.db, account.id, type);
    }
    return rows.map(present);
  }

  /** POST custom-search/create */
  async create(
    account: AccountRow,
    input: { type: QuickSearchType; title: string; criteria: QuickSearchCriteria },
    ctx: AuditContext,
  ): Promise<QuickSearch> {
    if ((await store.countSearches(this.db, account.id, input.type)) >= MAX_QUICK_SEARCHES) {
      throw errors.validation(`At most ${MAX_QUICK_SEARCHES} quick searches`, { limit: MAX_QUICK_SEARCHES });
    }
    if (await store.titleTaken(this.db, account.id, input.type, input.title)) throw titleTaken(input.title);
    const [row] = await store.insertSearches(
      this.db,
      [
        {
          id: crypto.randomUUID(),
          accountId: account.id,
          type: input.type,
          title: input.title,
          criteria: input.criteria,
          sort: await store.nextSort(this.db, account.id, input.type),
        },
      ],
      this.clock.now(),
    );
    // Nothing inserted: the same title won a race.
    if (!row) throw titleTaken(input.title);
    await this.audit(account, 'quick_search.create', row.id, ctx);
    return present(row);
  }

  /** POST custom-search/{id}/update */
  async update(
    account: AccountRow,
    id: string,
    change: { title?: string | undefined; criteria?: QuickSearchCriteria | undefined; sort?: number | undefined },
    ctx: AuditContext,
  ): Promise<QuickSearch> {
    const current = await store.findSearch(this.db, account.id, id);
    if (!current) throw errors.notFound('Quick search');
    if (change.title !== undefined && (await store.titleTaken(this.db, account.id, current.type, change.title, id))) {
      throw titleTaken(change.title);
    }
    const values: Partial<store.NewSearch> = Object.fromEntries(
      Object.entries(change).filter(([, v]) => v !== undefined),
    );
    // A renamed default is the user's own title from now on.
    if (change.title !== undefined) values.titleKey = null;
    let row;
    try {
      row = await store.updateSearch(this.db, account.id, id, values, this.clock.now());
    } catch (err) {
      // The unique title index lost a race to a concurrent rename.
      if (change.title !== undefined && /unique|duplicate/i.test(String(err))) throw titleTaken(change.title);
      throw err;
    }
    if (!row) throw errors.notFound('Quick search');
    await this.audit(account, 'quick_search.update', id, ctx);
    return present(row);
  }

  /** POST custom-search/{id}/delete: at least one must remain (spec 000 §5). */
  async remove(account: AccountRow, id: string, ctx: AuditContext): Promise<void> {
    const current = await store.findSearch(this.db, account.id, id);
    if (!current) throw errors.notFound('Quick search');
    await this.db.transaction(async (tx) => {
      if ((await store.lockSearches(tx, account.id, current.type)) <= 1) {
        throw errors.conflict('At least one quick search must remain');
      }
      if (!(await store.deleteSearch(tx, account.id, id))) throw errors.notFound('Quick search');
    });
    await this.audit(account, 'quick_search.delete', id, ctx);
  }

  private audit(account: AccountRow, action: string, id: string, ctx: AuditContext) {
    return writeAudit(this.db, ctx, {
      action,
      outcome: 'success',
      category: 'operation',
      actorId: account.id,
      actorUsername: account.username,
      targetType: 'quick_search',
      targetId: id,
    });
  }
}
