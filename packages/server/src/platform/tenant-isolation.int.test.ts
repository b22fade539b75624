import { REPORT_ACTION_PATHS, REPORT_ACTIONS } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assignRules,
  bucketDictionary,
  buckets,
  colorRules,
  imageDescTemplates,
  kbItems,
  modalities,
  reportTableColors,
  reportTemplates,
  roles,
  sampleGraphs,
} from '../db/schema.js';
import { generateStudy } from '../dicom/testdata/generate.js';
import { API_PREFIX } from '../app.js';
import { accountByUsername, joinOrganization, makeAccount, makeExamNotification } from '../test/factories.js';
import { DEMO_PW, startTestApp, type TestApp } from '../test/harness.js';
import type { RouteAuth } from './route.js';

/**
 * The tenant-isolation matrix, generated from the router: every API route registered on the
 * server is called (a) without a token, (b) by an admin of another group, (c) by a member of the
 * owning group who lacks the needed power. A route added later is covered without editing this
 * file, unless it uses a path parameter the fixture does not know, which fails loudly.
 */
let t: TestApp;
const tokens: Record<string, string> = {};
const fixture: Record<string, string> = {};
/** Strings of group A that must never appear in an answer to group B. */
const secrets: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  const db = t.db.database.db;
  const [radiology] = await db.select().from(buckets).where(eq(buckets.code, 'RH-RAD'));
  const [role] = await db.select().from(roles).where(eq(roles.bucketId, radiology!.id));
  const [tag] = await db
    .select()
    .from(bucketDictionary)
    .where(and(eq(bucketDictionary.bucketId, radiology!.id), eq(bucketDictionary.kind, 'tags')));
  const [assign] = await db.select().from(assignRules).where(eq(assignRules.groupId, 'demo-renhe'));
  const [color] = await db.select().from(colorRules).where(eq(colorRules.groupId, 'demo-renhe'));
  const tech = await accountByUsername(t, 'tech');
  const [modality] = await db.select().from(modalities).where(eq(modalities.bucketId, radiology!.id));
  const study = generateStudy({
    modality: 'CT',
    instancesPerSeries: 1,
    rows: 16,
    columns: 16,
    patientName: 'Secret^Patient',
    patientId: 'SECRET-PID',
  });
  const stored = await t.services.archive.ingest(radiology!.id, study.instances[0]!.bytes, 'web');
  // Report library rows of group A (the demo seeds templates, phrases and description templates).
  const [template] = await db.select().from(reportTemplates).where(eq(reportTemplates.bucketId, radiology!.id));
  const [descTemplate] = await db
    .select()
    .from(imageDescTemplates)
    .where(eq(imageDescTemplates.bucketId, radiology!.id));
  const [kbItem] = await db.select().from(kbItems).where(eq(kbItems.bucketId, radiology!.id));
  const [sampleGraph] = await db
    .insert(sampleGraphs)
    .values({
      id: 'sample-graph-fixture',
      bucketId: radiology!.id,
      title: '示意图',
      blobKey: 'sample-graphs/fixture.png',
      contentType: 'image/png',
      width: 400,
      height: 400,
    })
    .returning();
  // A report table colour of group A: its plain members get 403 on writing it, another group 404.
  const [tableColor] = await db
    .insert(reportTableColors)
    .values({ id: 'table-color-fixture', groupId: 'demo-renhe', name: '危急', field: 'critical', value: 'true' })
    .returning();
  // A notification of group A's technician: nobody else may read or mark it.
  const [notificationId] = await makeExamNotification(t, {
    accountIds: [tech!.id],
    groupId: 'demo-renhe',
    bucketId: radiology!.id,
    kind: 'exam_uploaded',
    examId: stored.examId,
    payload: {
      id: stored.examId,
      patientName: 'Secret^Patient',
      modality: 'CT',
      bodyPart: '',
      examTime: '2026-11-22T08:00:00',
      bucketName: '放射科',
    },
  });
  Object.assign(fixture, {
    groupId: 'demo-renhe',
    bucketId: radiology!.id,
    roleId: role!.id,
    kind: 'tags',
    itemId: tag!.id,
    assignRuleId: assign!.id,
    colorRuleId: color!.id,
    accountId: tech!.id,
    modalityId: modality!.id,
    study: study.studyInstanceUid,
    series: study.instances[0]!.seriesInstanceUid,
    instance: stored.sopInstanceUid,
    frames: '1',
    examId: stored.examId,
    otherId: stored.examId,
    // A report's id is its primary exam's id.
    reportId: stored.examId,
    imageId: 'image-fixture',
    traceId: 'trace-fixture',
    placementId: 'placement-fixture',
    // Share links hang on a report: refused before the handler like attachments.
    shareId: 'share-fixture',
    tag: '7FE00010',
    action: 'unlock',
    name: 'tech',
    notificationId: notificationId!,
    // No attachment needs to exist: every caller of the matrix is refused before the handler.
    attachmentId: 'attachment-fixture',
    tagId: tag!.id,
    // Quick searches are the caller's own: another account's id is simply not found.
    searchId: 'search-fixture',
    // Rows of group A's radiology: its members lacking template_upsert or manage_sample_graph get
    // 403 on them, another group 404.
    templateId: template!.id,
    descTemplateId: descTemplate!.id,
    kbItemId: kbItem!.id,
    sampleGraphId: sampleGraph!.id,
    // Critical values and comments hang on a report: refused before the handler like attachments.
    criticalId: 'critical-fixture',
    commentId: 'comment-fixture',
    colorId: tableColor!.id,
  });
  secrets.push(
    'demo-renhe',
    '仁和医院',
    radiology!.id,
    role!.id,
    tag!.id,
    assign!.id,
    color!.id,
    '放射科',
    'RH-RAD',
    'DEMO_MODALITY',
    'Secret^Patient',
    template!.id,
    descTemplate!.id,
    kbItem!.id,
    sampleGraph!.id,
  );
  // A plain member of the group and of the organization, with no role: holds only the read powers.
  const plain = await makeAccount(t, { username: 'plainmember', name: 'Plain', password: DEMO_PW, signIn: false });
  await joinOrganization(t, radiology!.id, plain.accountId, { level: 'member', groupLevel: 0 });
  for (const u of ['teleadmin', 'plainmember']) tokens[u] = await t.login(u);
});
afterAll(async () => {
  await t.close();
});

function pathFor(url: string): string {
  return url.replace(/:(\w+)/g, (_m, name: string) => {
    const key = name === 'ruleId' ? (url.includes('color-rules') ? 'colorRuleId' : 'assignRuleId') : name;
    const value = fixture[key];
    if (!value) throw new Error(`tenant-isolation fixture has no value for :${name} in ${url}; add one`);
    return encodeURIComponent(value);
  });
}

function call(method: string, url: string, token?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const sep = url.includes('?') ? '&' : '?';
  // Query values a route may read its scope from, and a search term that matches group A's names.
  const full = `${pathFor(url)}${sep}groupId=${fixture.groupId}&bucketId=${fixture.bucketId}&q=${encodeURIComponent('医')}&name=x`;
  return t.app.inject({
    method: method as 'GET',
    url: full,
    headers,
    ...(method === 'GET' ? {} : { payload: '{}' }),
  });
}

/** Group powers and bucket actions every plain member of the owning group holds. */
const memberHas = new Set(['group_read', 'bucket_read']);

describe('every API route declares its authorization', () => {
  it('has routes to check', () => {
    expect(t.routes.length).toBeGreaterThan(40);
  });
  it('has no route without an auth declaration', () => {
    const undeclared = t.routes.filter((r) => r.auth === undefined).map((r) => `${r.method} ${r.url}`);
    expect(undeclared).toEqual([]);
  });
  it('has one POST route per report action, at its path in the contract (REPORT_ACTION_PATHS)', () => {
    // reports.routes.ts writes each action's route out; this keeps them and the contract in step.
    const base = `${API_PREFIX}/reports/:reportId/`;
    const routesOf = (action: (typeof REPORT_ACTIONS)[number]) =>
      t.routes.filter((r) => r.method === 'POST' && r.url === `${base}${REPORT_ACTION_PATHS[action]}`);
    expect(REPORT_ACTIONS.map((action) => [action, routesOf(action).length])).toEqual(
      REPORT_ACTIONS.map((action) => [action, 1]),
    );
    expect(new Set(REPORT_ACTIONS.map((action) => REPORT_ACTION_PATHS[action])).size).toBe(REPORT_ACTIONS.length);
  });
});

describe('tenant isolation matrix', () => {
  it('(a) answers 401 without a token on every non-public route', async () => {
    const failures: string[] = [];
    for (const r of t.routes.filter((r) => r.auth !== 'public')) {
      const res = await call(r.method, r.url);
      if (res.statusCode !== 401) failures.push(`${r.method} ${r.url} → ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it("(b) gives a user of another group 404 or 403 on group and bucket routes, and none of the group's data anywhere", async () => {
    const failures: string[] = [];
    for (const r of t.routes.filter((r) => r.auth !== 'public')) {
      // Logout ends the caller's own session: it gets a token of its own.
      const token = r.url.endsWith('/accounts/logout') ? await t.login('teleadmin') : tokens.teleadmin;
      const res = await call(r.method, r.url, token);
      const auth = r.auth as RouteAuth;
      const scoped = typeof auth === 'object';
      if (scoped && ![403, 404].includes(res.statusCode)) failures.push(`${r.method} ${r.url} → ${res.statusCode}`);
      if (res.statusCode >= 500) failures.push(`${r.method} ${r.url} → ${res.statusCode}`);
      const leaked = secrets.filter((s) => res.body.includes(s));
      if (leaked.length) failures.push(`${r.method} ${r.url} leaks ${leaked.join(', ')}`);
    }
    expect(failures).toEqual([]);
  });

  it('(c) answers 403 to a member of the group who lacks the needed power or action', async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const r of t.routes) {
      const auth = r.auth as RouteAuth;
      if (typeof auth !== 'object') continue;
      const needed = 'power' in auth ? auth.power : auth.action;
      if (memberHas.has(needed)) continue;
      checked++;
      const res = await call(r.method, r.url, tokens.plainmember);
      if (res.statusCode !== 403) failures.push(`${r.method} ${r.url} (${needed}) → ${res.statusCode}`);
    }
    expect(checked).toBeGreaterThan(20);
    expect(failures).toEqual([]);
  });
});
