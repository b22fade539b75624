import {
  mediaCalls,
  REPORT_ACTION_PATHS,
  REPORT_ACTIONS,
  VIEWER_TOKEN_HEADER,
  viewerObjectCalls,
} from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../app.js';
import { signIn, type BuiltAccount } from '../test/factories.js';
import { startTestApp, TEST_SECRET, type TestApp } from '../test/harness.js';
import type { RouteAuth } from './route.js';
import { Signer } from './signed.js';

import { buildTenantWorld, type TenantWorld } from './tenant-isolation.fixture.js';
/**
 * The tenant-isolation matrix, generated from the router: every API route registered on the
 * server is called (a) without a token, (b) by an admin of another group, (c) by a member of the
 * owning group who lacks the needed power. A route added later is covered without editing this
 * file, unless it uses a path parameter the fixture does not know, which fails loudly.
 */
let t: TestApp;
/** The matrix's world (tenant-isolation.fixture.ts). */
let tokens: TenantWorld['tokens'];
let fixture: TenantWorld['fixture'];
/** Strings of group A that must never appear in an answer to group B. */
let secrets: string[];
let viewerObjects: TenantWorld['viewerObjects'];
let otherAdmin: BuiltAccount;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  ({ tokens, fixture, secrets, viewerObjects, otherAdmin } = await buildTenantWorld(t));
});
afterAll(async () => {
  await t.close();
});

/** The fixture's key for a plain :id, by the list the path names (procedure management's). */
const idKeys: [RegExp, string][] = [
  [/\/device-groups\/:id$/, 'deviceGroupId'],
  [/\/devices\/:id$/, 'deviceId'],
  [/\/procedures\/:id$/, 'procedureId'],
  [/\/modality-dictionary\/:id$/, 'modalityEntryId'],
  [/\/forwarding-rules\/:id$/, 'forwardingRuleId'],
  [/\/scheduled-exams\/:id/, 'scheduledId'],
  [/\/patients\/:id/, 'patientRef'],
  [/\/queue-types\/:id/, 'queueTypeId'],
  [/\/queue-exams\/:id/, 'queueExamId'],
  [/\/screen-tokens\/:id/, 'screenTokenId'],
  [/\/products\/:id/, 'productId'],
  [/\/(?:request|orders)\/:id/, 'orderId'],
  [/\/charge\/:id/, 'chargeId'],
  [/\/consultations\/:id/, 'consultationId'],
];

/** The fixture's key for the path parameter `name` of `url`. */
function keyOf(url: string, name: string): string {
  if (name === 'ruleId') return url.includes('color-rules') ? 'colorRuleId' : 'assignRuleId';
  if (name === 'id') return idKeys.find(([path]) => path.test(url))?.[1] ?? 'id';
  return name;
}

function pathFor(url: string): string {
  return url.replace(/:(\w+)/g, (_m, name: string) => {
    const key = keyOf(url, name);
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
      const token = r.url.endsWith('/accounts/logout') ? await signIn(t, otherAdmin) : tokens.otherAdmin;
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

  it("(d) refuses another group's scheduled exam named in a printing call's body, showing nothing of it", async () => {
    // orders/labels and orders/referral-forms name their exams in the body (auth 'account'): the
    // matrix's empty body only reaches validation, so they are asked here with group A's exam.
    for (const url of ['orders/labels', 'orders/referral-forms']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${API_PREFIX}/${url}`,
        headers: { authorization: `Bearer ${tokens.otherAdmin}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ scheduledIds: [fixture.scheduledId] }),
      });
      expect(res.statusCode, url).toBe(404);
      expect(secrets.filter((s) => res.body.includes(s))).toEqual([]);
    }
  });

  it('(e) finds no organization of group A by its code for another group (buckets/find-one names it in the query)', async () => {
    const findOne = (token: string) =>
      t.app.inject({
        method: 'GET',
        url: `${API_PREFIX}/buckets/find-one?code=TENANT-A-RAD`,
        headers: { authorization: `Bearer ${token}` },
      });
    const other = await findOne(tokens.otherAdmin!);
    expect(other.statusCode).toBe(404);
    expect(secrets.filter((s) => other.body.includes(s))).toEqual([]);
    expect((await findOne(tokens.plain!)).statusCode).toBe(200);
  });

  it("(f) gives a viewer path signed for group B's admin on group A's exam none of its SR, PDF or objects", async () => {
    // The viewer's object routes are public at the HTTP level (the signed path is the credential):
    // a path naming group A's exam for an account of group B reaches nothing.
    const me = (await t.call('GET', 'accounts/me', { token: tokens.otherAdmin })).json() as { id: string };
    const signer = new Signer(TEST_SECRET);
    const expires = new Date(t.clock.now().getTime() + 60_000);
    const payload = { e: fixture.examId, b: fixture.bucketId, s: fixture.study, u: me.id, r: null };
    const path = signer.sign('viewer', payload, expires).token;
    const studyPath = `viewer/studies/${fixture.study}`;
    const [sr, pdf] = viewerObjects;
    const urls: [string, string][] = [
      ['GET', viewerObjectCalls.objects.path],
      ['GET', `${studyPath}/series/${sr!.seriesInstanceUid}/instances/${sr!.sopInstanceUid}/sr`],
      ['POST', `${studyPath}/series/${pdf!.seriesInstanceUid}/instances/${pdf!.sopInstanceUid}/document-link`],
    ];
    for (const [method, url] of urls) {
      const res = await t.call(method as 'GET', url, { headers: { [VIEWER_TOKEN_HEADER]: path } });
      expect([403, 404], `${method} ${url}`).toContain(res.statusCode);
      expect(res.body).not.toContain('SECRET');
    }
    // A document link signed with another purpose's key is refused.
    const forged = signer.sign('viewer', { g: payload, se: pdf!.seriesInstanceUid, i: pdf!.sopInstanceUid }, expires);
    const res = await t.call('GET', `viewer/document?link=${encodeURIComponent(forged.token)}`);
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain('%PDF');
  });

  it("(g) exports none of group A's studies as DICOM media to another group, nor to a member without study_package", async () => {
    // POST exams/study-packages names its exams in the body (auth 'account'): the matrix's empty
    // body only reaches validation, so it is asked here with group A's exam.
    const ask = (token: string) =>
      t.call('POST', mediaCalls.studyPackages.path, { token, body: { examIds: [fixture.examId] } });
    const other = await ask(tokens.otherAdmin!);
    expect(other.statusCode).toBe(404);
    expect(secrets.filter((s) => other.body.includes(s))).toEqual([]);
    expect((await ask(tokens.plain!)).statusCode).toBe(403);
    // Its public download takes only a link signed for it: the study package's own link is refused.
    const signer = new Signer(TEST_SECRET);
    const expires = new Date(t.clock.now().getTime() + 60_000);
    for (const [purpose, payload] of [
      ['download', { i: [fixture.examId], l: 'en' }],
      ['media', { i: fixture.examId }],
    ] as const) {
      const token = signer.sign(purpose, payload, expires).token;
      const res = await t.call('GET', `${mediaCalls.studyPackagesDownload.path}?token=${encodeURIComponent(token)}`);
      expect(res.statusCode, purpose).toBe(404);
      expect(res.body).not.toContain('SECRET');
    }
  });

  it("(h) renders none of group A's images for another group: every rendered and thumbnail route is 404", async () => {
    // These routes are auth 'account' (the matrix's (b) asks only for no 5xx and no leak there).
    const images = t.routes.filter((r) => /\/(rendered|thumbnail)$/.test(r.url));
    expect(images.length).toBe(8);
    const failures: string[] = [];
    for (const r of images) {
      const res = await call(r.method, r.url, tokens.otherAdmin);
      if (res.statusCode !== 404) failures.push(`${r.method} ${r.url} → ${res.statusCode}`);
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
      const res = await call(r.method, r.url, tokens.plain);
      if (res.statusCode !== 403) failures.push(`${r.method} ${r.url} (${needed}) → ${res.statusCode}`);
    }
    expect(checked).toBeGreaterThan(20);
    expect(failures).toEqual([]);
  });
});
