import type { KbItem, ReportTemplate } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { buildKbTree, filterKbTree, folderIds, resortTarget } from './kbTree';
import { templatesFor } from './TemplateList';

const item = (id: string, parentId: string | null, position: number, extra: Partial<KbItem> = {}): KbItem => ({
  id,
  parentId,
  referenceId: null,
  type: 'personal',
  bucketId: null,
  title: id,
  content: `text of ${id}`,
  isFolder: false,
  position,
  createdTime: '2026-01-01T00:00:00Z',
  updatedTime: '2026-01-01T00:00:00Z',
  ...extra,
});

// chest/ { lung, heart }, bone/ { fracture }, note
const items: KbItem[] = [
  item('note', null, 3),
  item('chest', null, 1, { isFolder: true, title: 'Chest' }),
  item('bone', null, 2, { isFolder: true, title: 'Bone' }),
  item('heart', 'chest', 2, { content: '心影不大' }),
  item('lung', 'chest', 1, { content: '双肺纹理清晰' }),
  item('fracture', 'bone', 1),
];

const shape = (nodes: ReturnType<typeof buildKbTree>): unknown =>
  nodes.map((n) => (n.children.length ? { [n.item.id]: shape(n.children) } : n.item.id));

describe('knowledge-base tree', () => {
  it('builds folders in position order', () => {
    expect(shape(buildKbTree(items))).toEqual([{ chest: ['lung', 'heart'] }, { bone: ['fracture'] }, 'note']);
    expect(folderIds(buildKbTree(items))).toEqual(['chest', 'bone']);
  });

  it('filters phrases by title or content, keeping the folders above them', () => {
    const tree = buildKbTree(items);
    expect(shape(filterKbTree(tree, '纹理'))).toEqual([{ chest: ['lung'] }]);
    expect(shape(filterKbTree(tree, 'BONE'))).toEqual([{ bone: ['fracture'] }]);
    expect(shape(filterKbTree(tree, '  '))).toEqual(shape(tree));
    expect(filterKbTree(tree, 'nothing like it')).toEqual([]);
  });

  it('turns a drop into the resort call', () => {
    // before and after a sibling
    expect(resortTarget(items, 'heart', 'lung', -1)).toEqual({ preId: null });
    expect(resortTarget(items, 'lung', 'heart', 1)).toEqual({ preId: 'heart' });
    // into a folder (first), or next to an item of another folder
    expect(resortTarget(items, 'note', 'bone', 0)).toEqual({ preId: null, parentId: 'bone' });
    expect(resortTarget(items, 'fracture', 'heart', 1)).toEqual({ preId: 'heart', parentId: 'chest' });
    expect(resortTarget(items, 'fracture', 'note', -1)).toEqual({ preId: 'bone', parentId: null });
  });

  it('refuses drops that change nothing or cannot be', () => {
    expect(resortTarget(items, 'lung', 'heart', -1)).toBeNull();
    expect(resortTarget(items, 'lung', 'lung', 1)).toBeNull();
    expect(resortTarget(items, 'lung', 'heart', 0)).toBeNull();
    expect(resortTarget(items, 'chest', 'lung', 1)).toBeNull();
    expect(resortTarget(items, 'missing', 'lung', 1)).toBeNull();
  });
});

describe('templatesFor', () => {
  const tpl = (id: string, scope: ReportTemplate['scope'], modality: string, category = ''): ReportTemplate => ({
    id,
    scope,
    bucketId: scope === 'bucket' ? 'b1' : null,
    ownerId: scope === 'personal' ? 'u1' : null,
    category,
    title: id,
    modality,
    bodyPart: '',
    findings: '',
    conclusion: '',
    editable: false,
    createdTime: '',
    updatedTime: '',
  });
  const all = [tpl('mr-head', 'bucket', 'MR'), tpl('ct-chest', 'bucket', 'CT', 'Chest'), tpl('mine', 'personal', '')];

  it('lists one scope, the exam modality first, and searches title and category', () => {
    expect(templatesFor(all, 'bucket', '', 'CT').map((t) => t.id)).toEqual(['ct-chest', 'mr-head']);
    expect(templatesFor(all, 'bucket', 'chest', 'MR').map((t) => t.id)).toEqual(['ct-chest']);
    expect(templatesFor(all, 'personal', '', 'CT').map((t) => t.id)).toEqual(['mine']);
  });
});
