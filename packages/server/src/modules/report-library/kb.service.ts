import crypto from 'node:crypto';
import type { CreateKbItem, KbItem, KbTrees, ResortKbItem, UpdateKbItem } from '@yyp/contracts';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { appendPosition, placeAfter } from './kb-position.js';
import * as store from './kb.store.js';
import type { KbItemRow, KbTree } from './kb.store.js';
import { auditChange, LibraryAccess, type LibraryCaller } from './report-library.access.js';
import { personalRowRefusal, TEMPLATE_WRITE_ACTION } from './report-library.policy.js';
import { presentKbItem } from './report-library.presenter.js';

const sameTree = (a: KbTree, b: KbTree) =>
  a.type === b.type &&
  (a.type === 'group' ? a.bucketId === (b as typeof a).bucketId : a.ownerId === (b as typeof a).ownerId);

/**
 * The knowledge base of phrases (spec 000 §3, spec 001 §7 "Knowledge base"): two trees per caller,
 * its own (personal: nobody else ever sees it, others' ids are 404) and its organization's (group:
 * read with the organization's report material, changed with template_upsert). Folders hold
 * items; siblings are ordered by position (kb-position.ts).
 */
export class KnowledgeBaseService {
  private readonly access: LibraryAccess;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.access = new LibraryAccess(db);
  }

  /** GET kb-items/query: the caller's tree and the organization's, each flat and in order. */
  async query(caller: LibraryCaller, bucketId: string, q: string | undefined): Promise<KbTrees> {
    await this.access.require(caller, bucketId, 'read');
    const [personal, group] = await Promise.all([
      store.listTree(this.db, { type: 'personal', ownerId: caller.account.id }),
      store.listTree(this.db, { type: 'group', bucketId }),
    ]);
    return {
      personal: treeOrder(matching(personal, q)).map(presentKbItem),
      group: treeOrder(matching(group, q)).map(presentKbItem),
    };
  }

  /** POST kb-items: added last among its siblings. */
  async create(caller: LibraryCaller, input: CreateKbItem): Promise<KbItem> {
    const tree: KbTree =
      input.type === 'group'
        ? { type: 'group', bucketId: input.bucketId ?? '' }
        : { type: 'personal', ownerId: caller.account.id };
    if (tree.type === 'group') await this.access.require(caller, tree.bucketId, TEMPLATE_WRITE_ACTION);
    else await this.access.requireMember(caller);
    const parentId = input.parentId ?? null;
    const row = await this.db.transaction(async (tx) => {
      if (parentId !== null) await this.checkParent(tx, tree, parentId, null);
      const siblings = await store.lockSiblings(tx, tree, parentId);
      const inserted = await store.insertItem(
        tx,
        {
          id: crypto.randomUUID(),
          type: tree.type,
          bucketId: tree.type === 'group' ? tree.bucketId : null,
          ownerId: tree.type === 'personal' ? tree.ownerId : null,
          parentId,
          referenceId: null,
          isFolder: input.isFolder,
          title: input.title,
          content: input.isFolder ? '' : input.content,
          position: appendPosition(siblings),
          createdBy: caller.account.id,
        },
        this.clock.now(),
      );
      await this.audit(tx, caller, 'kb_item.create', inserted, { isFolder: inserted.isFolder });
      return inserted;
    });
    return presentKbItem(row);
  }

  /** PATCH kb-items/{id}: title, content, or a new folder (last among its new siblings). */
  async update(caller: LibraryCaller, id: string, change: UpdateKbItem): Promise<KbItem> {
    const current = await this.writable(caller, id);
    const tree = store.treeOf(current);
    const row = await this.db.transaction(async (tx) => {
      const values: Parameters<typeof store.updateItem>[2] = {};
      if (change.title !== undefined) values.title = change.title;
      if (change.content !== undefined) {
        if (current.isFolder && change.content !== '') throw errors.validation('A folder holds no content');
        values.content = change.content;
      }
      if (change.parentId !== undefined && change.parentId !== current.parentId) {
        if (change.parentId !== null) await this.checkParent(tx, tree, change.parentId, current.id);
        values.parentId = change.parentId;
        values.position = appendPosition(await store.lockSiblings(tx, tree, change.parentId));
      }
      const updated = await store.updateItem(tx, id, values, this.clock.now());
      if (!updated) throw errors.notFound('Knowledge base item');
      await this.audit(tx, caller, 'kb_item.update', updated, { fields: Object.keys(values) });
      return updated;
    });
    return presentKbItem(row);
  }

  /** DELETE kb-items/{id}: a folder goes with everything in it, in one transaction. */
  async remove(caller: LibraryCaller, id: string): Promise<void> {
    const current = await this.writable(caller, id);
    await this.db.transaction(async (tx) => {
      const gone = await store.deleteSubtree(tx, id);
      if (gone.length === 0) throw errors.notFound('Knowledge base item');
      await this.audit(tx, caller, 'kb_item.delete', current, { deleted: gone.length });
    });
  }

  /**
   * POST kb-items/{id}/resort: right after preId among its siblings (null: first), after moving
   * into parentId when given. One row changes, unless the siblings need renumbering.
   */
  async resort(caller: LibraryCaller, id: string, input: ResortKbItem): Promise<KbItem> {
    const current = await this.writable(caller, id);
    const tree = store.treeOf(current);
    const parentId = input.parentId === undefined ? current.parentId : input.parentId;
    const row = await this.db.transaction(async (tx) => {
      if (parentId !== null && parentId !== current.parentId) await this.checkParent(tx, tree, parentId, current.id);
      const siblings = await store.lockSiblings(tx, tree, parentId);
      const placement = placeAfter(siblings, id, input.preId);
      if (!placement) {
        throw errors.validation('preId is not another item of the same folder', { field: 'preId' });
      }
      if (placement.kind === 'renumber') await store.setPositions(tx, placement.order);
      const position =
        placement.kind === 'set' ? placement.position : placement.order.find((o) => o.id === id)!.position;
      const updated = await store.updateItem(tx, id, { parentId, position }, this.clock.now());
      if (!updated) throw errors.notFound('Knowledge base item');
      await this.audit(tx, caller, 'kb_item.resort', updated, {
        preId: input.preId,
        parentId,
        renumbered: placement.kind === 'renumber',
      });
      return updated;
    });
    return presentKbItem(row);
  }

  /** An item the caller may change: its own personal item, or a group item with template_upsert. */
  private async writable(caller: LibraryCaller, id: string): Promise<KbItemRow> {
    const row = await store.findItem(this.db, id);
    if (!row) throw errors.notFound('Knowledge base item');
    if (row.type === 'personal') {
      const refusal = personalRowRefusal(row.ownerId, caller.account.id, 'Knowledge base item');
      if (refusal) throw refusal;
      return row;
    }
    await this.access.require(caller, row.bucketId ?? '', TEMPLATE_WRITE_ACTION);
    return row;
  }

  /**
   * A parent is a folder of the same tree, and not the item itself or anything under it (an item
   * cannot hold its own folder). An unknown or foreign parent is a validation error, never a peek
   * into another tree.
   */
  private async checkParent(db: Db, tree: KbTree, parentId: string, movingId: string | null): Promise<void> {
    const parent = await store.findItem(db, parentId);
    if (!parent || !sameTree(store.treeOf(parent), tree)) {
      throw errors.validation('The parent is not a folder of this knowledge base', { field: 'parentId' });
    }
    if (!parent.isFolder) throw errors.validation('The parent is not a folder', { field: 'parentId' });
    if (movingId !== null && (await store.ancestry(db, parentId)).includes(movingId)) {
      throw errors.validation('An item cannot move into itself or a folder under it', { field: 'parentId' });
    }
  }

  private audit(db: Db, caller: LibraryCaller, action: string, row: KbItemRow, details: Record<string, unknown>) {
    return auditChange(db, caller, {
      action,
      targetType: 'kb_item',
      targetId: row.id,
      bucketId: row.bucketId,
      details: { type: row.type, ...details },
    });
  }
}

/**
 * With a search term, the items whose title or content holds it (ignoring case), with the
 * folders above them so the tree still shows where they are; without one, everything.
 */
export function matching(rows: KbItemRow[], q: string | undefined): KbItemRow[] {
  const term = q?.trim().toLowerCase();
  if (!term) return rows;
  const byId = new Map(rows.map((r) => [r.id, r]));
  const keep = new Set<string>();
  for (const r of rows) {
    if (!r.title.toLowerCase().includes(term) && !r.content.toLowerCase().includes(term)) continue;
    for (
      let at: KbItemRow | undefined = r;
      at && !keep.has(at.id);
      at = at.parentId ? byId.get(at.parentId) : undefined
    ) {
      keep.add(at.id);
    }
  }
  return rows.filter((r) => keep.has(r.id));
}

/**
 * Tree order: each folder followed by what it holds, siblings by position (`rows` come ordered by
 * position). An item whose folder is gone (a delete that raced a move) comes last, not lost.
 */
export function treeOrder(rows: KbItemRow[]): KbItemRow[] {
  const children = new Map<string | null, KbItemRow[]>();
  for (const r of rows) {
    const list = children.get(r.parentId) ?? [];
    list.push(r);
    children.set(r.parentId, list);
  }
  const out: KbItemRow[] = [];
  const seen = new Set<string>();
  const walk = (parentId: string | null) => {
    for (const r of children.get(parentId) ?? []) {
      if (seen.has(r.id)) continue;
      seen.add(r.id);
      out.push(r);
      walk(r.id);
    }
  };
  walk(null);
  for (const r of rows) if (!seen.has(r.id)) out.push(r);
  return out;
}
