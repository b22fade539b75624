import type { KbItem, ResortKbItem } from '@yyp/contracts';

/** A knowledge-base item with its children, for a tree view. */
export interface KbNode {
  item: KbItem;
  children: KbNode[];
}

/** The flat list (ordered by position among siblings) as a tree; orphans go to the top level. */
export function buildKbTree(items: readonly KbItem[]): KbNode[] {
  const nodes = new Map(items.map((item) => [item.id, { item, children: [] as KbNode[] }]));
  const roots: KbNode[] = [];
  for (const item of [...items].sort((a, b) => a.position - b.position)) {
    const node = nodes.get(item.id)!;
    const parent = item.parentId ? nodes.get(item.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/**
 * The tree cut down to the phrases whose title or content holds `query` (ignoring case), with the
 * folders above them; a folder whose own title matches keeps everything in it.
 */
export function filterKbTree(nodes: readonly KbNode[], query: string): KbNode[] {
  const q = query.trim().toLowerCase();
  if (!q) {
    return [...nodes];
  }
  const matches = (item: KbItem) => item.title.toLowerCase().includes(q) || item.content.toLowerCase().includes(q);
  const out: KbNode[] = [];
  for (const node of nodes) {
    if (matches(node.item)) {
      out.push(node);
      continue;
    }
    const children = filterKbTree(node.children, q);
    if (children.length > 0) {
      out.push({ item: node.item, children });
    }
  }
  return out;
}

/** Every folder id of a tree (to open them all while searching). */
export function folderIds(nodes: readonly KbNode[]): string[] {
  return nodes.flatMap((n) => (n.item.isFolder ? [n.item.id, ...folderIds(n.children)] : []));
}

/**
 * Where a dragged item goes, as POST kb-items/{id}/resort wants it: into a folder (first), or
 * before or after a sibling. `position` is -1 before the target, 1 after it, 0 onto it.
 * Null when nothing would change or the move is impossible (onto a phrase, into itself).
 */
export function resortTarget(
  items: readonly KbItem[],
  draggedId: string,
  targetId: string,
  position: -1 | 0 | 1,
): ResortKbItem | null {
  const byId = new Map(items.map((i) => [i.id, i]));
  const dragged = byId.get(draggedId);
  const target = byId.get(targetId);
  if (!dragged || !target || draggedId === targetId) {
    return null;
  }
  // Not into its own subtree.
  for (let p = target.parentId; p; p = byId.get(p)?.parentId ?? null) {
    if (p === draggedId) {
      return null;
    }
  }
  if (position === 0) {
    return target.isFolder ? { preId: null, parentId: target.id } : null;
  }
  const siblings = items
    .filter((i) => i.parentId === target.parentId && i.id !== draggedId)
    .sort((a, b) => a.position - b.position);
  const index = siblings.findIndex((i) => i.id === targetId);
  const preId = position === 1 ? target.id : (siblings[index - 1]?.id ?? null);
  const sameParent = dragged.parentId === target.parentId;
  if (sameParent) {
    const current = items
      .filter((i) => i.parentId === dragged.parentId)
      .sort((a, b) => a.position - b.position)
      .map((i) => i.id);
    const before = current[current.indexOf(draggedId) - 1] ?? null;
    if (before === preId) {
      return null;
    }
    return { preId };
  }
  return { preId, parentId: target.parentId };
}
