import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Device, DicomSend, ForwardingRule } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dicomSends, exams } from '../../db/schema.js';
import { part10Dataset } from '../../dicom/part10.js';
import { generateStudy, writeStudy, type GeneratedStudy } from '../../dicom/testdata/generate.js';
import { freePort, startStorescp } from '../../dicom/testdata/qrscu.js';
import { startTestDimse } from '../../test/dimse.js';
import {
  makeMember,
  makeModality,
  makeOrganization,
  signIn,
  type BuiltAccount,
  type BuiltOrganization,
} from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { auditActions, ok } from '../../test/factories-platform.js';
import { DEFAULT_STABLE_SECONDS } from './index.js';

const run = promisify(execFile);
let t: TestApp;
let org: BuiltOrganization;
let other: BuiltOrganization;
let tok: Record<string, string>;
let senderAccount: BuiltAccount;
let dimse: { close(): void; port: number };
let dir: string;
let archive: Awaited<ReturnType<typeof startStorescp>>;
let archiveDevice: Device;
const MODALITY_AE = 'CT_FWD_1';

const base = () => `buckets/${org.bucketId}`;
const admin = () => t.as(tok.admin!);

async function device(bucketId: string, token: string, body: Record<string, unknown>): Promise<Device> {
  return ok<Device>(await t.as(token).post(`buckets/${bucketId}/devices`, body), 201);
}

/** A study sent by the registered CT over DIMSE (storescu), as a modality sends it. */
async function sendFromModality(study: GeneratedStudy, name: string): Promise<string> {
  const files = await writeStudy(path.join(dir, name), study);
  await run('storescu', ['-aet', MODALITY_AE, '-aec', 'YYP', '127.0.0.1', String(dimse.port), ...files]);
  const [exam] = await t.db.database.db.select().from(exams).where(eq(exams.storeUid, study.studyInstanceUid));
  return exam!.id;
}

/** Moves the clock past the forwarding's stable age and runs every due job. */
async function settle(): Promise<void> {
  // The arrivals' jobs are queued first (their hook runs after the C-STORE has been answered).
  await t.services.forwarding.whenIdle();
  t.clock.advance((DEFAULT_STABLE_SECONDS + 1) * 1000);
  while ((await t.services.jobs.runDue()) > 0) {
    /* a forwarding job queues send jobs */
  }
}

const sendsOf = (examId: string) => t.db.database.db.select().from(dicomSends).where(eq(dicomSends.examId, examId));

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-fwd-'));
  org = await makeOrganization(t, { name: '放射科' });
  other = await makeOrganization(t, { name: '乙城放射科' });
  tok = {
    admin: (await makeMember(t, org.bucketId, { level: 'admin' })).token,
    reader: (await makeMember(t, org.bucketId, { actions: ['exam_get'] })).token,
    sender: (senderAccount = await makeMember(t, org.bucketId, { actions: ['exam_get', 'study_package'] })).token,
    otherAdmin: (await makeMember(t, other.bucketId, { level: 'admin' })).token,
  };
  await makeModality(t, org.bucketId, { aeTitle: MODALITY_AE });
  archive = await startStorescp(path.join(dir, 'archive'), 'LTA');
  archiveDevice = await device(org.bucketId, tok.admin!, {
    name: '长期归档',
    aeTitle: 'LTA',
    host: '127.0.0.1',
    port: archive.port,
  });
  dimse = await startTestDimse(t);
});
afterAll(async () => {
  dimse.close();
  archive.stop();
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('forwarding rules', () => {
  it('are added, listed, changed and removed by the organization admin, audited', async () => {
    const created = ok<ForwardingRule>(
      await admin().post(`${base()}/forwarding-rules`, {
        name: '临时',
        destinationId: archiveDevice.id,
        modality: 'mr',
      }),
      201,
    );
    expect(created).toMatchObject({ destinationAe: 'LTA', modality: 'MR', sourceAe: '', bodyPart: '', enabled: true });
    const changed = ok<ForwardingRule>(
      await admin().put(`${base()}/forwarding-rules/${created.id}`, {
        name: '临时 2',
        destinationId: archiveDevice.id,
        enabled: false,
      }),
    );
    expect(changed).toMatchObject({ name: '临时 2', modality: '', enabled: false });
    expect(ok<ForwardingRule[]>(await t.as(tok.reader!).get(`${base()}/forwarding-rules`))).toHaveLength(1);
    expect((await admin().del(`${base()}/forwarding-rules/${created.id}`)).statusCode).toBe(204);
    expect(ok<ForwardingRule[]>(await admin().get(`${base()}/forwarding-rules`))).toHaveLength(0);
    expect(await auditActions(t, org.bucketId, 'forwarding_rule.create')).toBe(1);
    expect(await auditActions(t, org.bucketId, 'forwarding_rule.delete')).toBe(1);
  });

  it('refuse bad input with 400, other organizations with 403 or 404, and change nothing', async () => {
    const noPort = await device(org.bucketId, tok.admin!, { name: '无端口', aeTitle: 'NOPORT', host: '127.0.0.1' });
    const theirs = await device(other.bucketId, tok.otherAdmin!, {
      name: '他们的',
      aeTitle: 'THEIRS',
      host: '127.0.0.1',
      port: 104,
    });
    const bad = [
      { name: '', destinationId: archiveDevice.id },
      { name: 'x', destinationId: archiveDevice.id, modality: 'C;T' },
      { name: 'x', destinationId: archiveDevice.id, sourceAe: 'A'.repeat(17) },
      { name: 'x', destinationId: archiveDevice.id, extra: true },
      { name: 'x', destinationId: noPort.id },
      { name: 'x', destinationId: theirs.id },
      { name: 'x', destinationId: 'nope' },
    ];
    for (const body of bad) {
      expect((await admin().post(`${base()}/forwarding-rules`, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(
      (await t.as(tok.reader!).post(`${base()}/forwarding-rules`, { name: 'x', destinationId: archiveDevice.id }))
        .statusCode,
    ).toBe(403);
    expect([403, 404]).toContain((await t.as(tok.otherAdmin!).get(`${base()}/forwarding-rules`)).statusCode);
    expect(
      (await admin().put(`${base()}/forwarding-rules/nope`, { name: 'x', destinationId: archiveDevice.id })).statusCode,
    ).toBe(404);
    expect(ok<ForwardingRule[]>(await admin().get(`${base()}/forwarding-rules`))).toHaveLength(0);
  });
});

describe('forwarding new studies on arrival', () => {
  it('sends every new CT to the archive once it is stable, and not an MR', async () => {
    const rule = ok<ForwardingRule>(
      await admin().post(`${base()}/forwarding-rules`, {
        name: 'CT 归档',
        destinationId: archiveDevice.id,
        modality: 'CT',
      }),
      201,
    );
    const before = archive.files().length;
    const ct = generateStudy({ modality: 'CT', series: 2, instancesPerSeries: 3, rows: 32, columns: 32 });
    const mr = generateStudy({ modality: 'MR', instancesPerSeries: 2, rows: 32, columns: 32 });
    const ctExam = await sendFromModality(ct, 'ct');
    const mrExam = await sendFromModality(mr, 'mr');
    // Nothing leaves before the study is stable.
    await t.services.jobs.runDue();
    expect(await sendsOf(ctExam)).toHaveLength(0);
    await settle();
    const [send] = await sendsOf(ctExam);
    expect(send).toMatchObject({ trigger: 'rule', ruleId: rule.id, status: 'done', total: 6, sent: 6, failed: 0 });
    expect(await sendsOf(mrExam)).toHaveLength(0);
    expect(archive.files().length - before).toBe(6);
    // What arrived is the study as stored, byte for byte.
    const received = new Set(
      archive
        .files()
        .map((f) => part10Dataset(fs.readFileSync(path.join(dir, 'archive', f))).dataset.toString('base64')),
    );
    for (const i of ct.instances) expect(received.has(part10Dataset(i.bytes).dataset.toString('base64'))).toBe(true);
    expect(await auditActions(t, org.bucketId, 'exam.dicom_send')).toBe(1);
    await admin().del(`${base()}/forwarding-rules/${rule.id}`);
  });

  it('keeps retrying a destination that is down and delivers once it is back', async () => {
    const port = await freePort();
    const late = await device(org.bucketId, tok.admin!, { name: '备份', aeTitle: 'BACKUP', host: '127.0.0.1', port });
    const rule = ok<ForwardingRule>(
      await admin().post(`${base()}/forwarding-rules`, { name: '备份', destinationId: late.id, sourceAe: MODALITY_AE }),
      201,
    );
    const study = generateStudy({ modality: 'DX', rows: 32, columns: 32 });
    const examId = await sendFromModality(study, 'dx');
    await settle();
    const [waiting] = await sendsOf(examId);
    expect(waiting).toMatchObject({ status: 'queued', attempts: 1, sent: 0 });
    expect(waiting!.lastError).toMatch(/connect/);
    const backup = await startStorescp(path.join(dir, 'backup'), 'BACKUP', port);
    try {
      t.clock.advance(31_000);
      await t.services.jobs.runDue();
      const [delivered] = await sendsOf(examId);
      expect(delivered, delivered?.lastError ?? '').toMatchObject({ status: 'done', attempts: 2, sent: 1, failed: 0 });
      expect(backup.files()).toHaveLength(1);
    } finally {
      backup.stop();
      await admin().del(`${base()}/forwarding-rules/${rule.id}`);
    }
  });
});

describe('sending by hand', () => {
  let examId: string;
  let study: GeneratedStudy;
  beforeAll(async () => {
    study = generateStudy({ modality: 'CT', series: 2, instancesPerSeries: 2, rows: 32, columns: 32 });
    examId = await sendFromModality(study, 'manual');
  });

  it('sends chosen series to a device, shows the progress and audits it', async () => {
    const before = archive.files().length;
    const series = study.instances[0]!.seriesInstanceUid;
    const queued = ok<DicomSend>(
      await t
        .as(tok.sender!)
        .post(`exams/${examId}/dicom-sends`, { destinationId: archiveDevice.id, seriesUids: [series] }),
      202,
    );
    expect(queued).toMatchObject({ status: 'queued', trigger: 'manual', destinationAe: 'LTA', seriesUids: [series] });
    await t.services.jobs.runDue();
    const [done] = ok<DicomSend[]>(await t.as(tok.reader!).get(`exams/${examId}/dicom-sends`));
    expect(done).toMatchObject({ id: queued.id, status: 'done', total: 2, sent: 2 });
    expect(archive.files().length - before).toBe(2);
    expect(ok<DicomSend[]>(await t.as(tok.reader!).get(`${base()}/dicom-sends`)).some((s) => s.id === queued.id)).toBe(
      true,
    );
  });

  it('refuses callers without study_package, other organizations, bad bodies; a failed send is sent again', async () => {
    const body = { destinationId: archiveDevice.id };
    expect((await t.as(tok.reader!).post(`exams/${examId}/dicom-sends`, body)).statusCode).toBe(403);
    expect([403, 404]).toContain((await t.as(tok.otherAdmin!).post(`exams/${examId}/dicom-sends`, body)).statusCode);
    expect([403, 404]).toContain((await t.as(tok.otherAdmin!).get(`exams/${examId}/dicom-sends`)).statusCode);
    const sender = t.as(tok.sender!);
    for (const bad of [
      {},
      { destinationId: archiveDevice.id, seriesUids: [] },
      { destinationId: archiveDevice.id, seriesUids: ['x'] },
      { destinationId: archiveDevice.id, seriesUids: ['1.2.3'] },
    ]) {
      expect((await sender.post(`exams/${examId}/dicom-sends`, bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
    const port = await freePort();
    const down = await device(org.bucketId, tok.admin!, { name: '停机', aeTitle: 'DOWN', host: '127.0.0.1', port });
    const failing = ok<DicomSend>(await sender.post(`exams/${examId}/dicom-sends`, { destinationId: down.id }), 202);
    for (let i = 0; i < 5; i++) {
      await t.services.jobs.runDue();
      t.clock.advance(40 * 60_000);
    }
    const [failed] = (await sendsOf(examId)).filter((s) => s.id === failing.id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 5 });
    // Hours went by: the sender signs in again.
    const again = t.as(await signIn(t, senderAccount));
    expect((await again.post(`exams/${examId}/dicom-sends/nope/retry`)).statusCode).toBe(404);
    const retried = ok<DicomSend>(await again.post(`exams/${examId}/dicom-sends/${failing.id}/retry`), 202);
    expect(retried).toMatchObject({ status: 'queued', destinationAe: 'DOWN' });
    expect((await again.post(`exams/${examId}/dicom-sends/${retried.id}/retry`)).statusCode).toBe(409);
  });
});
