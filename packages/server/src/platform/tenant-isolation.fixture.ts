import { demoRoles, DEMO_URGENT_COLOR_RULE } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
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
import {
  makeColorRule,
  makeExamNotification,
  makeMember,
  makeModality,
  makeOrganization,
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
import { type TestApp } from '../test/harness.js';

/**
 * The world of the tenant-isolation matrix (tenant-isolation.int.test.ts): group A (privacy off)
 * with a radiology, its staff, an exam with images, SR and PDF, and a row of every list a route can
 * name; group B (privacy on) whose admin is the other group's caller; a plain member of group A.
 * `fixture` names a value for every path parameter, `secrets` the strings of group A that must
 * never reach group B.
 */
export interface TenantWorld {
  tokens: Record<string, string>;
  fixture: Record<string, string>;
  secrets: string[];
  /** Group A's SR and PDF (the viewer's object routes). */
  viewerObjects: { seriesInstanceUid: string; sopInstanceUid: string }[];
  /** Group B's admin: a group admin (level 1) and admin of B's organization, none of group A. */
  otherAdmin: BuiltAccount;
}

export async function buildTenantWorld(t: TestApp): Promise<TenantWorld> {
  const tokens: Record<string, string> = {};
  const fixture: Record<string, string> = {};
  const secrets: string[] = [];
  const viewerObjects: TenantWorld['viewerObjects'] = [];
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
  const otherAdmin = await makeMember(t, remote.bucketId, { level: 'admin', groupLevel: 1 });
  // A plain member of the group and of the organization, with no role: holds only the read powers.
  const plain = await makeMember(t, radiology.bucketId, { level: 'member', groupLevel: 0 });
  tokens.otherAdmin = otherAdmin.token;
  tokens.plain = plain.token;
  return { tokens, fixture, secrets, viewerObjects, otherAdmin };
}
