import {
  demoRoles,
  DEMO_URGENT_COLOR_RULE,
  mediaCalls,
  REPORT_ACTION_PATHS,
  REPORT_ACTIONS,
  VIEWER_TOKEN_HEADER,
  viewerObjectCalls,
} from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deviceGroups,
  dicomSends,
  forwardingRules,
  imageDescTemplates,
  kbItems,
  modalities,
  modalityDictionary,
  procedures,
  reportTableColors,
  reportTemplates,
  sampleGraphs,
} from '../db/schema.js';
import { generateStudy } from '../dicom/testdata/generate.js';
import { generatePdf, generateSr } from '../dicom/testdata/objects.js';
import { API_PREFIX } from '../app.js';
import {
  makeColorRule,
  makeExamNotification,
  makeMember,
  makeModality,
  makeOrganization,
  signIn,
  type BuiltAccount,
} from '../test/factories.js';
import { makeStaffed } from '../test/factories-archive.js';
import { insertCallingRows } from '../test/factories-calling.js';
import { insertConsultationRows } from '../test/factories-consultations.js';
import { insertOrderRows } from '../test/factories-orders.js';
import { insertPaymentRows } from '../test/factories-payments.js';
import { makeAssignRule, makeDictionaryItem } from '../test/factories-platform.js';
import { makeReportLibrary } from '../test/factories-reports.js';
import { register } from '../test/factories-registry.js';
import { startTestApp, TEST_SECRET, type TestApp } from '../test/harness.js';
import type { RouteAuth } from './route.js';
import { Signer } from './signed.js';

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

/** Group A's SR and PDF (the viewer's object routes). */
const viewerObjects: { seriesInstanceUid: string; sopInstanceUid: string }[] = [];

/** Group B's admin: a group admin (level 1) and admin of B's organization, none of group A. */
let otherAdmin: BuiltAccount;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const db = t.db.database.db;
  // Group A (privacy off), its radiology with a doctor and a technician, as the hospital of the demo.
  const {
    org: radiology,
    doctor,
    tech,
  } = await makeStaffed(t, ['doctor', 'tech'], {
    group: { id: 'tenant-a-group', displayName: '甲城医院' },
    name: '甲城放射科',
    code: 'TENANT-A-RAD',
  });
  const groupId = radiology.groupId;
  const tagId = await makeDictionaryItem(t, radiology.bucketId, 'tags', '随访');
  // An exam extension field (extends/orgs, buckets/:bucketId/extensions, scheduled exams' values).
  const extensionId = await makeDictionaryItem(t, radiology.bucketId, 'extension-configs', '甲城扩展字段');
  const assignId = await makeAssignRule(t, groupId, { bucketIds: [radiology.bucketId], doctorId: doctor.accountId });
  const color = await makeColorRule(t, groupId, { ...DEMO_URGENT_COLOR_RULE });
  const modalityAe = 'TENANT_A_MODALITY';
  await makeModality(t, radiology.bucketId, { aeTitle: modalityAe, name: '演示 CT' });
  const [modality] = await db.select().from(modalities).where(eq(modalities.bucketId, radiology.bucketId));
  const study = generateStudy({
    modality: 'CT',
    instancesPerSeries: 1,
    rows: 16,
    columns: 16,
    patientName: 'Secret^Patient',
    patientId: 'SECRET-PID',
  });
  const stored = await t.services.archive.ingest(radiology.bucketId, study.instances[0]!.bytes, 'web');
  // Group A's SR and PDF of that study (the viewer's object routes, issue 28 item 10).
  const objectsOf = {
    studyInstanceUid: study.studyInstanceUid,
    patientName: 'Secret^Patient',
    patientId: 'SECRET-PID',
  };
  const secretSr = generateSr(objectsOf, [
    { type: 'TEXT', rel: 'CONTAINS', concept: ['121071', 'Finding'], text: 'SECRET-SR-FINDING' },
  ]);
  const secretPdf = generatePdf(objectsOf);
  for (const i of [secretSr, secretPdf]) await t.services.archive.ingest(radiology.bucketId, i.bytes, 'web');
  viewerObjects.push(secretSr, secretPdf);
  // Report library rows of group A: its starter templates, phrases and description templates.
  await makeReportLibrary(t, radiology.bucketId);
  const [template] = await db.select().from(reportTemplates).where(eq(reportTemplates.bucketId, radiology.bucketId));
  const [descTemplate] = await db
    .select()
    .from(imageDescTemplates)
    .where(eq(imageDescTemplates.bucketId, radiology.bucketId));
  const [kbItem] = await db.select().from(kbItems).where(eq(kbItems.bucketId, radiology.bucketId));
  const material = { templateId: template!.id, descTemplateId: descTemplate!.id, kbItemId: kbItem!.id };
  const [sampleGraph] = await db
    .insert(sampleGraphs)
    .values({
      id: 'sample-graph-fixture',
      bucketId: radiology.bucketId,
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
    .values({ id: 'table-color-fixture', groupId, name: '危急', field: 'critical', value: 'true' })
    .returning();
  // A notification of group A's technician: nobody else may read or mark it.
  const [notificationId] = await makeExamNotification(t, {
    accountIds: [tech.accountId],
    groupId,
    bucketId: radiology.bucketId,
    kind: 'exam_uploaded',
    examId: stored.examId,
    payload: {
      id: stored.examId,
      patientName: 'Secret^Patient',
      modality: 'CT',
      bodyPart: '',
      examTime: '2026-11-22T08:00:00',
      bucketName: radiology.name,
    },
  });
  // Procedure management rows of group A's radiology: a device group, a procedure naming it, a
  // modality of the dictionary (the device is the modality above).
  const [deviceGroup] = await db
    .insert(deviceGroups)
    .values({ id: 'device-group-fixture', bucketId: radiology.bucketId, name: '甲城 CT 组' })
    .returning();
  const [procedure] = await db
    .insert(procedures)
    .values({
      id: 'procedure-fixture',
      bucketId: radiology.bucketId,
      name: '甲城头颅平扫',
      code: 'TENANT-A-PROC',
      modality: 'CT',
      deviceGroupIds: [deviceGroup!.id],
    })
    .returning();
  const [modalityEntry] = await db
    .insert(modalityDictionary)
    .values({ id: 'modality-entry-fixture', bucketId: radiology.bucketId, modalityCode: 'CT', displayName: '甲城 CT' })
    .returning();
  // A registration at group A's desk: its scheduled exam, patient and pass code.
  const registrar = await makeMember(t, radiology.bucketId, { actions: demoRoles.registrar.actions });
  const registration = await register(t, registrar.token, radiology.bucketId, [{ modality: 'CT' }], {
    patient: { name: 'Secret^Registrant', gender: 'F', patientId: 'SECRET-REG-PID' },
  });
  // Calling rows of group A's radiology: a call queue, the registration's exam in it, a screen token.
  const calling = await insertCallingRows(t, radiology.bucketId, registration.exams[0]!.id);
  // An order of group A's exam and a product its radiology sells (request/:id, orders/:id, products/:id).
  const ordering = await insertOrderRows(t, radiology.bucketId, groupId, stored.examId);
  // Its paid WeChat payment (charge/:id, payments/:no).
  const paying = await insertPaymentRows(t, { orderId: ordering.orderId, groupId, bucketId: radiology.bucketId });
  const consulting = await insertConsultationRows(t, radiology.bucketId, groupId); // consultations/:id, its parts, its room
  // A forwarding rule to the organization's archive, and a send of the exam (forwarding-rules/:id, dicom-sends/:sendId).
  await makeModality(t, radiology.bucketId, { aeTitle: 'TENANT_A_ARCHIVE', host: '127.0.0.1', port: 104 });
  const [archiveDevice] = await db.select().from(modalities).where(eq(modalities.aeTitle, 'TENANT_A_ARCHIVE'));
  const now = t.clock.now();
  const [forwardingRule] = await db
    .insert(forwardingRules)
    .values({
      id: 'tenant-a-rule',
      bucketId: radiology.bucketId,
      name: '甲城转发',
      destinationId: archiveDevice!.id,
      created: now,
      updated: now,
    })
    .returning();
  const [dicomSend] = await db
    .insert(dicomSends)
    .values({
      id: 'tenant-a-send',
      bucketId: radiology.bucketId,
      examId: stored.examId,
      destinationId: archiveDevice!.id,
      destinationAe: 'TENANT_A_ARCHIVE',
      trigger: 'manual',
      status: 'failed',
      created: now,
      updated: now,
    })
    .returning();
  Object.assign(fixture, {
    groupId,
    bucketId: radiology.bucketId,
    roleId: tech.roleId!,
    kind: 'tags',
    itemId: tagId,
    assignRuleId: assignId,
    colorRuleId: color.id,
    accountId: tech.accountId,
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
    name: tech.username,
    notificationId: notificationId!,
    // No attachment needs to exist: every caller of the matrix is refused before the handler.
    attachmentId: 'attachment-fixture',
    tagId,
    // Quick searches are the caller's own: another account's id is simply not found.
    searchId: 'search-fixture',
    // Learning videos are the platform's, not a tenant's: no row needs to exist (the matrix's callers write none).
    learningId: 'learning-fixture',
    // Rows of group A's radiology: its members lacking template_upsert or manage_sample_graph get
    // 403 on them, another group 404.
    templateId: material.templateId,
    descTemplateId: material.descTemplateId,
    kbItemId: material.kbItemId,
    sampleGraphId: sampleGraph!.id,
    // Critical values and comments hang on a report: refused before the handler like attachments.
    criticalId: 'critical-fixture',
    commentId: 'comment-fixture',
    colorId: tableColor!.id,
    // :id of procedure management's paths (buckets/:bucketId/<list>/:id), by list (idOf)
    deviceGroupId: deviceGroup!.id,
    deviceId: modality!.id,
    procedureId: procedure!.id,
    modalityEntryId: modalityEntry!.id,
    forwardingRuleId: forwardingRule!.id,
    sendId: dicomSend!.id,
    // The registry's scheduled exam, patient and pass code (scheduled-exams/:id, patients/:id, pass-codes/:code).
    scheduledId: registration.exams[0]!.id,
    patientRef: registration.patient.id,
    code: registration.passCode,
    extensionId,
    // :id of the calling paths (queue-types/:id, queue-exams/:id, screen-tokens/:id), by idKeys
    ...calling,
    ...ordering,
    ...paying,
    ...consulting,
  });
  secrets.push(
    groupId,
    '甲城医院',
    radiology.bucketId,
    tech.roleId!,
    tagId,
    assignId,
    color.id,
    radiology.name,
    radiology.code!,
    modalityAe,
    'Secret^Patient',
    material.templateId,
    material.descTemplateId,
    material.kbItemId,
    sampleGraph!.id,
    deviceGroup!.id,
    '甲城 CT 组',
    procedure!.id,
    'TENANT-A-PROC',
    modalityEntry!.id,
    'Secret^Registrant',
    'SECRET-REG-PID',
    registration.passCode,
    registration.exams[0]!.accessionNumber,
    registration.patient.id,
    extensionId,
    '甲城扩展字段',
    calling.queueTypeId,
    '甲城 CT 队列',
    calling.queueExamId,
    calling.screenTokenId,
    '甲城候诊屏',
    ordering.orderId,
    'R-FIXTURE-1',
    ordering.productId,
    '甲城 CT 读片',
    paying.chargeId,
    paying.no,
    '4200000000FIXTURE',
    'Secret^Consulted',
    '甲城转发',
    'TENANT_A_ARCHIVE',
  );
  // Group B (privacy on), as the teleradiology group of the demo: its admin is the other group's caller.
  const remote = await makeOrganization(t, {
    group: { id: 'tenant-b-group', displayName: '乙城远程影像中心', enablePrivacy: true },
    name: '乙城远程诊断中心',
  });
  otherAdmin = await makeMember(t, remote.bucketId, { level: 'admin', groupLevel: 1 });
  // A plain member of the group and of the organization, with no role: holds only the read powers.
  const plain = await makeMember(t, radiology.bucketId, { level: 'member', groupLevel: 0 });
  tokens.otherAdmin = otherAdmin.token;
  tokens.plain = plain.token;
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
