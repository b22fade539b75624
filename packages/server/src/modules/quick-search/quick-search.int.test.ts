import type { QuickSearch, QuickSearchCriteria, StudyDatePreset } from '@yyp/contracts';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customSearches } from '../../db/schema.js';
import { DEMO_PW, startTestApp, type TestApp } from '../../test/harness.js';
import { accountByUsername, makeAccount, makeMember, makeOrganization } from '../../test/factories.js';

let t: TestApp;
const tok: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  // Two doctors of a hospital, a doctor of another group, and 'expert' (signed in by a case).
  const rad = await makeOrganization(t);
  tok.doctor = (await makeMember(t, rad.bucketId, { actions: ['exam_get', 'report_upsert'] })).token;
  tok.senior = (await makeMember(t, rad.bucketId, { actions: ['exam_get', 'report_approval'] })).token;
  const tele = await makeOrganization(t);
  tok.teledoctor = (await makeMember(t, tele.bucketId, { actions: ['exam_get', 'report_upsert'] })).token;
  await makeAccount(t, { username: 'expert', password: DEMO_PW, signIn: false });
});
afterAll(async () => {
  await t.close();
});

const mine = async (who: string) => {
  const res = await t.as(tok[who]!).get('custom-search/my?type=study');
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as QuickSearch[];
};
const criteria = (preset = 'yesterday', filters: unknown[] = []) => ({ studyDate: { preset }, filters, sorts: [] });

describe('quick searches', () => {
  it('starts each user with today, yesterday and the last 7 days in their language', async () => {
    const list = await mine('doctor');
    expect(list.map((q) => q.title)).toEqual(['今天', '昨天', '近7天']);
    expect(list.map((q) => q.criteria.studyDate.preset)).toEqual(['today', 'yesterday', 'last7Days']);
    // Each is stored with its key, so every screen names it in its own language.
    expect(list.map((q) => q.titleKey)).toEqual(['today', 'yesterday', 'last7Days']);
    const stored = await t.db.database.db
      .select({ titleKey: customSearches.titleKey })
      .from(customSearches)
      .where(
        inArray(
          customSearches.id,
          list.map((q) => q.id),
        ),
      );
    expect(stored.map((r) => r.titleKey).sort()).toEqual(['last7Days', 'today', 'yesterday']);
    // A second call adds nothing.
    expect(await mine('doctor')).toHaveLength(3);
    await t.call('PATCH', 'accounts/me', { token: tok.teledoctor!, body: { preferences: { language: 'en' } } });
    expect((await mine('teledoctor')).map((q) => q.title)).toEqual(['Today', 'Yesterday', '7 days']);
  });

  it('saves a search with a study date and other filters, in order', async () => {
    const res = await t.as(tok.doctor!).post('custom-search/create', {
      type: 'study',
      title: '昨天CT',
      criteria: criteria('yesterday', [{ field: 'modality', operator: 'eq', values: ['CT'] }]),
    });
    expect(res.statusCode, res.body).toBe(200);
    const list = await mine('doctor');
    expect(list.at(-1)).toMatchObject({ title: '昨天CT', criteria: { filters: [{ field: 'modality' }] } });
    // Nobody else sees it.
    expect((await mine('senior')).some((q) => q.title === '昨天CT')).toBe(false);
  });

  it('requires a unique title of at most 10 characters and a study date', async () => {
    const bad = [
      { type: 'study', title: '', criteria: criteria() },
      { type: 'study', title: '   ', criteria: criteria() },
      { type: 'study', title: '一二三四五六七八九十一', criteria: criteria() },
      { type: 'study', title: 'ok', criteria: { filters: [], sorts: [] } },
      { type: 'study', title: 'ok', criteria: criteria('custom') },
      {
        type: 'study',
        title: 'ok',
        criteria: criteria('yesterday', [{ field: 'studyDate', operator: 'eq', values: ['20261101'] }]),
      },
      {
        type: 'study',
        title: 'ok',
        criteria: criteria('yesterday', [{ field: 'password', operator: 'eq', values: ['x'] }]),
      },
      { type: 'reports', title: 'ok', criteria: criteria() },
    ];
    for (const body of bad) {
      const res = await t.as(tok.doctor!).post('custom-search/create', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    // Ten characters are allowed, counted as characters (Tibetan and Chinese alike).
    const ten = await t.as(tok.doctor!).post('custom-search/create', {
      type: 'study',
      title: '一二三四五六七八九十',
      criteria: criteria('custom', []),
    });
    expect(ten.statusCode).toBe(400); // custom without dates
    const ok = await t.as(tok.doctor!).post('custom-search/create', {
      type: 'study',
      title: '一二三四五六七八九十',
      criteria: { studyDate: { preset: 'custom', from: '20260101', to: '20261231' }, filters: [], sorts: [] },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const dup = await t
      .as(tok.doctor!)
      .post('custom-search/create', { type: 'study', title: '今天', criteria: criteria() });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe('NameNotAvailable');
  });

  it('recognises defaults stored before keys by their title, in any language', async () => {
    const account = await accountByUsername(t, 'expert');
    const token = await t.login('expert');
    const now = new Date();
    const row = (id: string, title: string, preset: StudyDatePreset, filters: QuickSearchCriteria['filters'] = []) => ({
      id,
      accountId: account!.id,
      type: 'study',
      title,
      criteria: { studyDate: { preset }, filters, sorts: [] },
      sort: 0,
      createdAt: now,
      updatedAt: now,
    });
    // Rows as they were stored before the key existed (title_key null).
    await t.db.database.db.insert(customSearches).values([
      { ...row('legacy-1', '今天', 'today'), sort: 0 },
      { ...row('legacy-2', 'Yesterday', 'yesterday'), sort: 1 },
      { ...row('legacy-3', '近7天', 'last7Days', [{ field: 'modality', operator: 'eq', values: ['CT'] }]), sort: 2 },
      { ...row('legacy-4', '昨天', 'today'), sort: 3 },
    ]);
    const res = await t.as(token).get('custom-search/my?type=study');
    expect(res.statusCode, res.body).toBe(200);
    const keys = (res.json() as QuickSearch[]).map((q) => [q.id, q.titleKey]);
    // A default title on another study date, or with more filters, is the user's own search.
    expect(keys).toEqual([
      ['legacy-1', 'today'],
      ['legacy-2', 'yesterday'],
      ['legacy-3', null],
      ['legacy-4', null],
    ]);
  });

  it('renames and reorders, keeping titles unique', async () => {
    const [today, yesterday] = await mine('doctor');
    const taken = await t.as(tok.doctor!).post(`custom-search/${today!.id}/update`, { title: yesterday!.title });
    expect(taken.statusCode).toBe(409);
    expect(today!.titleKey).toBe('today');
    const reordered = await t.as(tok.doctor!).post(`custom-search/${today!.id}/update`, { sort: 0 });
    expect(reordered.json()).toMatchObject({ titleKey: 'today' });
    const renamed = await t.as(tok.doctor!).post(`custom-search/${today!.id}/update`, { title: '当天', sort: 50 });
    expect(renamed.statusCode, renamed.body).toBe(200);
    // Renamed, it is the user's own title: no longer shown as the translated default.
    expect(renamed.json()).toMatchObject({ title: '当天', titleKey: null });
    expect((await mine('doctor')).at(-1)!.title).toBe('当天');
    // Another user's search is not found.
    expect((await t.as(tok.senior!).post(`custom-search/${today!.id}/update`, { title: 'x' })).statusCode).toBe(404);
    expect((await t.as(tok.senior!).post(`custom-search/${today!.id}/delete`)).statusCode).toBe(404);
  });

  it('deletes down to one, never the last', async () => {
    const list = await mine('senior');
    for (const q of list.slice(1)) {
      expect((await t.as(tok.senior!).post(`custom-search/${q.id}/delete`)).statusCode).toBe(204);
    }
    const last = await t.as(tok.senior!).post(`custom-search/${list[0]!.id}/delete`);
    expect(last.statusCode).toBe(409);
    expect(await mine('senior')).toHaveLength(1);
  });
});
