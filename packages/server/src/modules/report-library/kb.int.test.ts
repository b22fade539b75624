import type { KbItem, KbTrees } from '@yyp/contracts';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, kbItems } from '../../db/schema.js';
import { makeHospital, makeReportLibrary } from '../../test/factories-reports.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let tok: Record<string, string> = {};
let rad: string;
let tele: string;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  ({ tok, radiology: rad, tele } = await makeHospital(t, ['doctor', 'senior', 'tech', 'teledoctor']));
  await makeReportLibrary(t, rad, tele);
});
afterAll(async () => {
  await t.close();
});

const db = () => t.db.database.db;
const as = (who: string) => t.as(tok[who]!);
const patch = (who: string, id: string, body: unknown) => t.call('PATCH', `kb-items/${id}`, { token: tok[who]!, body });
const trees = async (who: string, bucketId = rad, q?: string) => {
  const res = await as(who).get(`kb-items/query?bucketId=${bucketId}${q ? `&q=${encodeURIComponent(q)}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as KbTrees;
};
const add = async (who: string, body: Record<string, unknown>) => {
  const res = await as(who).post('kb-items', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as KbItem;
};
const resort = (who: string, id: string, body: Record<string, unknown>) => as(who).post(`kb-items/${id}/resort`, body);
/** The titles under one parent, in order. */
const childrenOf = (items: KbItem[], parentId: string | null) =>
  items.filter((i) => i.parentId === parentId).map((i) => i.title);

describe('knowledge base', () => {
  it("answers the organization's seeded phrases in folders, and an empty personal tree", async () => {
    const { personal, group } = await trees('doctor');
    expect(personal).toEqual([]);
    expect(childrenOf(group, null)).toEqual(['肺部', '肝脏', '头颅']);
    const lung = group.find((i) => i.title === '肺部')!;
    expect(lung).toMatchObject({ isFolder: true, type: 'group', bucketId: rad });
    const phrases = group.filter((i) => i.parentId === lung.id);
    expect(phrases.length).toBeGreaterThanOrEqual(3);
    expect(phrases.map((p) => p.content)).toContain('双肺纹理清晰，走行自然。');
    // Tree order: a folder, then what it holds; siblings by position.
    expect(group.slice(0, phrases.length + 1).map((i) => i.title)).toEqual(['肺部', ...phrases.map((p) => p.title)]);
    for (const parent of [null, ...group.filter((i) => i.isFolder).map((i) => i.id)]) {
      const positions = group.filter((i) => i.parentId === parent).map((i) => i.position);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
    }
    // A technician reads them too (exam_get); another group does not.
    expect((await trees('tech')).group).toHaveLength(group.length);
    expect((await as('teledoctor').get(`kb-items/query?bucketId=${rad}`)).statusCode).toBe(404);
    expect((await trees('teledoctor', tele)).group.every((i) => i.bucketId === tele)).toBe(true);
  });

  it('keeps personal items to their owner', async () => {
    const folder = await add('doctor', { type: 'personal', title: '常用', isFolder: true });
    const phrase = await add('doctor', {
      type: 'personal',
      parentId: folder.id,
      title: '未见异常',
      content: '未见明显异常。',
    });
    expect(phrase).toMatchObject({ type: 'personal', bucketId: null, parentId: folder.id, isFolder: false });
    expect(childrenOf((await trees('doctor')).personal, folder.id)).toEqual(['未见异常']);
    expect((await trees('senior')).personal).toEqual([]);
    expect((await patch('senior', phrase.id, { title: 'x' })).statusCode).toBe(404);
    expect((await as('senior').del(`kb-items/${phrase.id}`)).statusCode).toBe(404);
    expect((await resort('teledoctor', phrase.id, { preId: null })).statusCode).toBe(404);
    // Nor can another account file its items under someone else's folder.
    const foreign = await as('senior').post('kb-items', { type: 'personal', parentId: folder.id, title: 'x' });
    expect(foreign.statusCode).toBe(400);
    const renamed = await patch('doctor', phrase.id, { title: '正常', content: '未见异常。' });
    expect(renamed.json()).toMatchObject({ title: '正常', content: '未见异常。' });
  });

  it('changes group items with template_upsert only, hides them from other groups, and audits', async () => {
    const item = await add('doctor', { type: 'group', bucketId: rad, title: '肺结节', content: '右肺上叶见结节影。' });
    expect(item).toMatchObject({ type: 'group', bucketId: rad, parentId: null });
    expect((await trees('senior')).group.some((i) => i.id === item.id)).toBe(true);
    expect((await as('tech').post('kb-items', { type: 'group', bucketId: rad, title: 'x' })).statusCode).toBe(403);
    expect((await patch('tech', item.id, { title: 'x' })).statusCode).toBe(403);
    expect((await as('tech').del(`kb-items/${item.id}`)).statusCode).toBe(403);
    expect((await resort('tech', item.id, { preId: null })).statusCode).toBe(403);
    expect((await as('teledoctor').post('kb-items', { type: 'group', bucketId: rad, title: 'x' })).statusCode).toBe(
      404,
    );
    expect((await patch('teledoctor', item.id, { title: 'x' })).statusCode).toBe(404);
    expect((await as('teledoctor').del(`kb-items/${item.id}`)).statusCode).toBe(404);
    expect((await patch('senior', item.id, { content: '右肺上叶见小结节。' })).statusCode).toBe(200);
    const actions = (await db().select().from(auditLogs).where(eq(auditLogs.targetId, item.id))).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['kb_item.create', 'kb_item.update']));
  });

  it('validates input and writes nothing for a bad request', async () => {
    const before = (await db().select().from(kbItems)).length;
    const bad = [
      { type: 'group', title: 'no organization' },
      { type: 'personal', title: 'x'.repeat(65) },
      { type: 'personal', title: '' },
      { type: 'personal', title: 'ok', content: 'c'.repeat(20_001) },
      { type: 'shared', title: 'ok' },
      { type: 'personal', title: 'ok', position: 3 },
    ];
    for (const body of bad) {
      expect((await as('doctor').post('kb-items', body)).statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
    }
    const phrase = await add('doctor', { type: 'personal', title: '短语' });
    // A phrase is no folder: nothing goes under it.
    expect(
      (await as('doctor').post('kb-items', { type: 'personal', parentId: phrase.id, title: 'x' })).statusCode,
    ).toBe(400);
    expect((await as('doctor').post('kb-items', { type: 'personal', parentId: 'nope', title: 'x' })).statusCode).toBe(
      400,
    );
    // A personal item cannot go into the organization's folder.
    const lung = (await trees('doctor')).group.find((i) => i.title === '肺部')!;
    expect((await patch('doctor', phrase.id, { parentId: lung.id })).statusCode).toBe(400);
    expect((await patch('doctor', phrase.id, { title: 'x'.repeat(65) })).statusCode).toBe(400);
    expect((await db().select().from(kbItems)).length).toBe(before + 1);
  });

  it('moves an item right after preId among its siblings, or first with null', async () => {
    const folder = await add('doctor', { type: 'personal', title: '排序', isFolder: true });
    const ids: Record<string, string> = {};
    for (const title of ['a', 'b', 'c', 'd']) {
      ids[title] = (await add('doctor', { type: 'personal', parentId: folder.id, title })).id;
    }
    const order = async () => childrenOf((await trees('doctor')).personal, folder.id).join('');
    expect(await order()).toBe('abcd');

    expect((await resort('doctor', ids.d!, { preId: ids.a! })).statusCode).toBe(200);
    expect(await order()).toBe('adbc');
    expect((await resort('doctor', ids.c!, { preId: null })).statusCode).toBe(200);
    expect(await order()).toBe('cadb');
    expect((await resort('doctor', ids.c!, { preId: ids.b! })).statusCode).toBe(200);
    expect(await order()).toBe('adbc');
    // preId must be another item of the same folder.
    expect((await resort('doctor', ids.a!, { preId: ids.a! })).statusCode).toBe(400);
    expect((await resort('doctor', ids.a!, { preId: folder.id })).statusCode).toBe(400);
    expect(await order()).toBe('adbc');

    // With parentId, it moves to the other folder first.
    const other = await add('doctor', { type: 'personal', title: '其他', isFolder: true });
    const x = await add('doctor', { type: 'personal', parentId: other.id, title: 'x' });
    const moved = await resort('doctor', ids.b!, { parentId: other.id, preId: x.id });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ parentId: other.id });
    expect(await order()).toBe('adc');
    expect(childrenOf((await trees('doctor')).personal, other.id)).toEqual(['x', 'b']);
    // Back to the top level, first.
    expect((await resort('doctor', ids.b!, { parentId: null, preId: null })).json()).toMatchObject({ parentId: null });
    expect(childrenOf((await trees('doctor')).personal, null)[0]).toBe('b');
    expect((await db().select().from(auditLogs).where(eq(auditLogs.action, 'kb_item.resort'))).length).toBeGreaterThan(
      0,
    );
  });

  it('keeps the order when many moves share one gap (siblings renumbered)', async () => {
    const folder = await add('doctor', { type: 'personal', title: '密集', isFolder: true });
    const first = await add('doctor', { type: 'personal', parentId: folder.id, title: 'first' });
    const last = await add('doctor', { type: 'personal', parentId: folder.id, title: 'last' });
    const expected = ['first', 'last'];
    // Each new item goes right after 'first': the gap halves every time, until it is renumbered.
    for (let n = 0; n < 40; n++) {
      const item = await add('doctor', { type: 'personal', parentId: folder.id, title: `n${n}` });
      expect((await resort('doctor', item.id, { preId: first.id })).statusCode).toBe(200);
      expected.splice(1, 0, `n${n}`);
    }
    expect(childrenOf((await trees('doctor')).personal, folder.id)).toEqual(expected);
    const renumbered = (await db().select().from(auditLogs).where(eq(auditLogs.action, 'kb_item.resort'))).filter(
      (r) => (r.details as { renumbered?: boolean }).renumbered,
    );
    expect(renumbered.length).toBeGreaterThan(0);
    const rows = await db().select().from(kbItems).where(eq(kbItems.parentId, folder.id));
    expect(new Set(rows.map((r) => r.position)).size).toBe(rows.length);
    expect(rows.find((r) => r.id === last.id)).toBeDefined();
  });

  it('refuses a move that would put a folder inside itself', async () => {
    const outer = await add('doctor', { type: 'personal', title: '外', isFolder: true });
    const inner = await add('doctor', { type: 'personal', parentId: outer.id, title: '内', isFolder: true });
    const deepest = await add('doctor', { type: 'personal', parentId: inner.id, title: '最内', isFolder: true });
    expect((await patch('doctor', outer.id, { parentId: outer.id })).statusCode).toBe(400);
    expect((await patch('doctor', outer.id, { parentId: inner.id })).statusCode).toBe(400);
    expect((await patch('doctor', outer.id, { parentId: deepest.id })).statusCode).toBe(400);
    expect((await resort('doctor', outer.id, { parentId: deepest.id, preId: null })).statusCode).toBe(400);
    const [row] = await db().select().from(kbItems).where(eq(kbItems.id, outer.id));
    expect(row!.parentId).toBeNull();
    // The other way round is a plain move.
    expect((await patch('doctor', deepest.id, { parentId: null })).json()).toMatchObject({ parentId: null });
  });

  it('deletes a folder with everything under it, in one go', async () => {
    const folder = await add('doctor', { type: 'group', bucketId: rad, title: '待删', isFolder: true });
    const sub = await add('doctor', { type: 'group', bucketId: rad, parentId: folder.id, title: '子', isFolder: true });
    const a = await add('doctor', { type: 'group', bucketId: rad, parentId: folder.id, title: 'a', content: 'A' });
    const b = await add('doctor', { type: 'group', bucketId: rad, parentId: sub.id, title: 'b', content: 'B' });
    const keep = await add('doctor', { type: 'group', bucketId: rad, title: '保留' });
    const ids = [folder.id, sub.id, a.id, b.id];
    expect((await as('senior').del(`kb-items/${folder.id}`)).statusCode).toBe(204);
    expect(await db().select().from(kbItems).where(inArray(kbItems.id, ids))).toEqual([]);
    expect(await db().select().from(kbItems).where(eq(kbItems.id, keep.id))).toHaveLength(1);
    expect((await as('senior').del(`kb-items/${folder.id}`)).statusCode).toBe(404);
    const [audit] = await db().select().from(auditLogs).where(eq(auditLogs.action, 'kb_item.delete'));
    expect(audit!.details).toMatchObject({ deleted: 4 });
  });

  it('searches titles and contents, keeping the folders above a match', async () => {
    const { group } = await trees('doctor', rad, '走行自然');
    expect(group.map((i) => i.title)).toEqual(['肺部', '肺纹理正常']);
    expect((await trees('doctor', rad, '不存在的短语')).group).toEqual([]);
  });
});
