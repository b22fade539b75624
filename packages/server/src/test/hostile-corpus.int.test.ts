import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exams, instances, patients, series } from '../db/schema.js';
import { boundaryOf, parseMultipart } from '../dicom/multipart.js';
import { INDEX_MAX_LENGTH } from '../dicom/parse.js';
import { COMMAND, TAG, commandUs, decodeCommand } from '../dicom/dimse-command.js';
import { decodePData } from '../dicom/ul-pdata.js';
import { makeModality } from './factories.js';
import { startWithStaff } from './factories-platform.js';
import type { TestApp } from './harness.js';
import { startTestDimse } from './dimse.js';
import { associateRq, pdu } from './raw-association.js';
import { injectStow } from './stow.js';
import { datasetOf, hostileCorpus, writeHostileCorpus, type HostileCase } from './hostile-corpus.js';
import { listenOnLoopback, uploadClient } from './tus-client.js';

/**
 * Issue 19's hostile-file corpus over every way in: STOW-RS, C-STORE (DCMTK's storescu against
 * the DIMSE listener) and the upload wizard (tus, then the session summary). Each file is either
 * stored, with its preamble zeroed, its indexed text without U+0000 and cut to its VR's length,
 * or refused with the status the issue names (STOW-RS 0xC000, C-STORE 0xA900 class, the wizard
 * a skipped line) and nothing of it stored. Never a 500, never a crash.
 */
const run = promisify(execFile);
const MODALITY_AE = 'HOSTILE_MODALITY';
let t: TestApp;
let base: string;
let radId: string;
let tech: string;
let doctor: string;
let dimse: { close(): void; port: number };
let dir: string;
const { send, post } = uploadClient(() => base);

beforeAll(async () => {
  const built = await startWithStaff({ stowLimitBytes: 64 * 1024 * 1024 }, ['tech', 'doctor']);
  t = built.t;
  base = await listenOnLoopback(t);
  radId = built.org.bucketId;
  tech = built.tech.token;
  doctor = built.doctor.token;
  // The modality C-STORE sends as: allowed to send to the organization.
  await makeModality(t, radId, { aeTitle: MODALITY_AE });
  dimse = await startTestDimse(t, { host: '127.0.0.1', auditRefusals: false });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-hostile-'));
}, 120_000);
afterAll(async () => {
  dimse?.close();
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const TEXT_COLUMNS: Record<string, string> = {
  patientName: 'PN',
  patientId: 'LO',
  patientGender: 'CS',
  patientDob: 'DA',
  accessionNumber: 'SH',
  studyDate: 'DA',
  studyTime: 'TM',
  studyDesc: 'LO',
  studyId: 'SH',
  bodyPart: 'CS',
  institution: 'LO',
  referringPhysician: 'PN',
};

function withinLimit(value: string, vr: string): boolean {
  const max = INDEX_MAX_LENGTH[vr]!;
  return vr === 'PN' ? value.split('=').every((g) => [...g].length <= max) : [...value].length <= max;
}

/**
 * What the archive holds of a case: the exam, its rows and files if stored, nothing if refused.
 * Over C-STORE the file's group 0002 is the archive's own: there the dataset is compared.
 */
async function expectArchived(c: HostileCase, via: 'dimse' | 'file' = 'file'): Promise<void> {
  const db = t.db.database.db;
  const found = await db.select().from(exams).where(eq(exams.storeUid, c.studyInstanceUid));
  const stored = await db.select().from(instances).where(eq(instances.sopInstanceUid, c.sopInstanceUid));
  if (c.outcome === 'refused') {
    expect({ exams: found.length, instances: stored.length }, c.name).toEqual({ exams: 0, instances: 0 });
    return;
  }
  expect(found, c.name).toHaveLength(1);
  expect(stored, c.name).toHaveLength(1);
  const exam = found[0]!;
  for (const [column, vr] of Object.entries(TEXT_COLUMNS)) {
    const value = exam[column as keyof typeof exam] as string;
    expect(value.includes('\0'), `${c.name} ${column}`).toBe(false);
    expect(withinLimit(value, vr), `${c.name} ${column} is ${value.length} long`).toBe(true);
  }
  expect(exam).toMatchObject(c.indexed ?? {});
  const [patient] = await db.select().from(patients).where(eq(patients.id, exam.patientKeyId));
  for (const v of [patient!.name, patient!.patientId, patient!.sex, patient!.birthDate]) expect(v).not.toContain('\0');
  const [s] = await db.select().from(series).where(eq(series.examId, exam.id));
  for (const v of [s!.description, s!.bodyPart, s!.modality]) expect(v).not.toContain('\0');

  // The stored file: preamble zeroed, every byte after it as sent.
  const file = await t.blobs.get(stored[0]!.blobKey);
  expect(file.subarray(0, 128).equals(Buffer.alloc(128)), `${c.name} preamble`).toBe(true);
  if (via === 'file') expect(file.subarray(128).equals(c.body!), `${c.name} body`).toBe(true);
  else expect(Buffer.from(datasetOf(file)).equals(c.dataset!), `${c.name} dataset`).toBe(true);
  // And as WADO-RS serves it.
  const res = await t.app.inject({
    method: 'GET',
    url: `/dicom-web/studies/${c.studyInstanceUid}/series/${s!.seriesUid}/instances/${c.sopInstanceUid}`,
    headers: { authorization: `Bearer ${doctor}` },
  });
  expect(res.statusCode).toBe(200);
  const [part] = parseMultipart(res.rawPayload, boundaryOf(res.headers['content-type'] as string)!);
  expect(part!.body.subarray(0, 2).toString('latin1')).not.toBe('MZ');
  expect(part!.body.subarray(0, 128).equals(Buffer.alloc(128))).toBe(true);
}

describe('the corpus itself', () => {
  it('holds every kind of hostile file the issue names', () => {
    const names = hostileCorpus().map((c) => c.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'overlap.zip',
        'crc-mismatch.zip',
        'nul-in-text.dcm',
        'mz-preamble.dcm',
        'text-8mb.dcm',
        'dims-65535.dcm',
        'deep-10000.dcm',
      ]),
    );
  });
});

describe('over STOW-RS', () => {
  it('stores the acceptable files cleaned, refuses the others with 0xC000, answers no 500', async () => {
    for (const c of hostileCorpus()) {
      const res = await injectStow(t, tech, [c.bytes], { boundary: 'hostile', accept: 'application/dicom+json' });
      const body = res.json() as Record<string, { Value: Record<string, { Value: unknown[] }>[] }>;
      if (c.outcome === 'stored') {
        expect(res.statusCode, `${c.name}: ${res.body.slice(0, 300)}`).toBe(200);
        expect(body['00081199']!.Value[0]!['00081155']!.Value).toEqual([c.sopInstanceUid]);
      } else {
        expect(res.statusCode, `${c.name}: ${res.body.slice(0, 300)}`).toBe(409);
        expect(body['00081198']!.Value.map((f) => f['00081197']!.Value[0])).toEqual([0xc000]);
      }
      await expectArchived(c);
    }
  });
});

/** A C-STORE of one Part 10 file over a raw association (for what DCMTK itself cannot read). */
async function rawCStore(c: HostileCase, sopClassUid: string): Promise<number> {
  const associate = associateRq(MODALITY_AE, [{ id: 1, abstract: sopClassUid, ts: '1.2.840.10008.1.2.1' }], 1 << 20);
  const el = (tag: number, value: Buffer) => {
    const h = Buffer.alloc(8);
    h.writeUInt16LE(tag >>> 16, 0);
    h.writeUInt16LE(tag & 0xffff, 2);
    h.writeUInt32LE(value.length, 4);
    return Buffer.concat([h, value]);
  };
  const us = (n: number) => Buffer.from([n & 0xff, n >> 8]);
  const ui = (s: string) => Buffer.from(s.length % 2 ? `${s}\0` : s, 'latin1');
  const elements = Buffer.concat([
    el(TAG.affectedSopClassUid, ui(sopClassUid)),
    el(TAG.commandField, us(COMMAND.cStoreRq)),
    el(TAG.messageId, us(1)),
    el(TAG.priority, us(0)),
    el(TAG.commandDataSetType, us(0)),
    el(TAG.affectedSopInstanceUid, ui(c.sopInstanceUid)),
  ]);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(elements.length, 0);
  const command = Buffer.concat([el(0, length), elements]);
  const dataset = Buffer.from(datasetOf(c.bytes));
  const pdv = (control: number, data: Buffer) => {
    const h = Buffer.alloc(6);
    h.writeUInt32BE(data.length + 2, 0);
    h[4] = 1;
    h[5] = control;
    return Buffer.concat([h, data]);
  };
  const storeRq = Buffer.concat([pdu(0x04, pdv(0x03, command)), pdu(0x04, pdv(0x02, dataset))]);
  return new Promise((resolve, reject) => {
    const socket = net.connect(dimse.port, '127.0.0.1');
    let received = Buffer.alloc(0);
    socket.on('connect', () => socket.write(associate));
    socket.on('error', reject);
    socket.on('data', (d: Buffer) => {
      received = Buffer.concat([received, d]);
      while (received.length >= 6 && received.length >= 6 + received.readUInt32BE(2)) {
        const type = received[0]!;
        const body = received.subarray(6, 6 + received.readUInt32BE(2));
        received = received.subarray(6 + body.length);
        if (type === 0x02) socket.write(storeRq);
        else if (type === 0x04) {
          const status = commandUs(decodeCommand(decodePData(body)[0]!.data), TAG.status)!;
          socket.end(pdu(0x05, Buffer.alloc(4)));
          resolve(status);
        } else reject(new Error(`unexpected PDU ${type}`));
      }
    });
  });
}

describe('over C-STORE', () => {
  it('stores the acceptable files cleaned and refuses the others with 0xA900, never "out of resources"', async () => {
    const cases = hostileCorpus().filter((c) => c.kind === 'dicom');
    const files = await writeHostileCorpus(path.join(dir, 'dimse'), cases);
    for (const [n, c] of cases.entries()) {
      if (c.name === 'deep-10000.dcm') {
        // DCMTK cannot read this file to send it: its dataset goes over a raw association.
        expect(await rawCStore(c, '1.2.840.10008.5.1.4.1.1.2'), c.name).toBe(0xa900);
      } else {
        const out = await run('storescu', [
          '-v',
          '-aet',
          MODALITY_AE,
          '-aec',
          'YYP',
          '127.0.0.1',
          String(dimse.port),
          files[n]!,
        ]).then(
          (r) => r.stdout + r.stderr,
          (err: { stdout?: string; stderr?: string }) => `${err.stdout ?? ''}${err.stderr ?? ''}`,
        );
        const response = /Received Store Response \(([^)]*)\)/.exec(out)?.[1];
        expect(response, `${c.name}: ${out}`).toBe(
          c.outcome === 'stored' ? 'Success' : 'Error: DataSetDoesNotMatchSOPClass',
        );
      }
      await expectArchived(c, 'dimse');
    }
    // The listener is still there.
    await expect(
      run('echoscu', ['-aet', MODALITY_AE, '-aec', 'YYP', '127.0.0.1', String(dimse.port)]),
    ).resolves.toBeDefined();
  });
});

describe('over the upload wizard', () => {
  it('stores the acceptable files cleaned, lists the others as skipped, archives refused whole', async () => {
    const session = await post(`buckets/${radId}/studies/upload`, {}, tech);
    expect(session.status).toBe(201);
    const token = session.json.sessionToken as string;
    const cases = hostileCorpus();
    for (const c of cases) await send(token, Buffer.from(c.bytes), c.name);
    const summary = await post('uploads/summary', { sessionToken: token });
    expect(summary.status).toBe(200);
    const skipped = summary.json.skipped as { name: string; reason: string }[];
    expect(summary.json.stored).toBe(cases.filter((c) => c.outcome === 'stored').length);
    for (const c of cases.filter((x) => x.outcome === 'refused')) {
      expect(
        skipped.some((s) => s.name === c.name || s.name.startsWith(`${c.name}/`)),
        `${c.name} in ${JSON.stringify(skipped)}`,
      ).toBe(true);
    }
    for (const c of cases) await expectArchived(c);
    expect((await post('exams/post-upload', { sessionToken: token })).status).toBe(200);
  });
});

describe('afterwards', () => {
  it('the study list page of the organization stays small, its values cut', async () => {
    const res = await t.as(doctor).post('exams/page-query', { skip: 0, limit: 20 });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(64 * 1024);
    const qido = await t.app.inject({
      method: 'GET',
      url: '/dicom-web/studies?limit=20',
      headers: { authorization: `Bearer ${doctor}` },
    });
    expect(qido.statusCode).toBe(200);
    expect(qido.rawPayload.length).toBeLessThan(64 * 1024);
    const ids = (await t.db.database.db.select({ id: exams.id }).from(exams)).map((e) => e.id);
    expect(ids.length).toBeGreaterThan(0);
    const rows = await t.db.database.db.select().from(exams).where(inArray(exams.id, ids));
    for (const row of rows) expect(row.patientName.length).toBeLessThanOrEqual(64 * 3 + 2);
  });
});
