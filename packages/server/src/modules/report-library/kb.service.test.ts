import { describe, expect, it } from 'vitest';
import type { KbItemRow } from './kb.store.js';
import { matching, treeOrder } from './kb.service.js';

const at = new Date('2026-01-01T00:00:00Z');
const item = (id: string, parentId: string | null, position: number, title = id, content = ''): KbItemRow => ({
  id,
  type: 'personal',
  bucketId: null,
  ownerId: 'me',
  parentId,
  referenceId: null,
  isFolder: false,
  title,
  content,
  position,
  createdBy: null,
  createdAt: at,
  updatedAt: at,
});
const byPosition = (rows: KbItemRow[]) => [...rows].sort((a, b) => a.position - b.position);
const ids = (rows: KbItemRow[]) => rows.map((r) => r.id).join(' ');

describe('treeOrder', () => {
  it('puts each folder before what it holds, siblings by position', () => {
    const rows = byPosition([
      item('A', null, 1),
      item('B', null, 2),
      item('a2', 'A', 2),
      item('a1', 'A', 1),
      item('x', 'a1', 1),
    ]);
    expect(ids(treeOrder(rows))).toBe('A a1 x a2 B');
  });
  it('keeps an item whose folder is gone, last', () => {
    expect(ids(treeOrder([item('A', null, 1), item('lost', 'gone', 0)]))).toBe('A lost');
  });
});

describe('matching', () => {
  const rows = byPosition([
    item('lung', null, 1, '肺部'),
    item('p1', 'lung', 1, '肺纹理', '双肺纹理清晰，走行自然。'),
    item('p2', 'lung', 2, '胸腔', '双侧胸腔未见积液。'),
    item('liver', null, 2, '肝脏'),
  ]);
  it('keeps matches in title or content, with the folders above them', () => {
    expect(ids(matching(rows, '走行'))).toBe('lung p1');
    expect(ids(matching(rows, '肝脏'))).toBe('liver');
  });
  it('answers everything without a term, nothing without a match', () => {
    expect(matching(rows, undefined)).toHaveLength(4);
    expect(matching(rows, '  ')).toHaveLength(4);
    expect(matching(rows, '骨折')).toEqual([]);
  });
});
