import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, buckets, exams, instances, series } from '../db/schema.js';
import { startTestApp, type TestApp } from '../test/harness.js';
import { startDimse } from './dimse.js';
import { generateStudy, writeStudy } from './testdata/generate.js';

const run = promisify(execFile);
let t: TestApp;
let port: number;
let dimse: { close(): void };
let dir: string;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

beforeAll(async () => {
  t = await startTestApp();
  port = await freePort();
  dimse = await startDimse(port, 'YYP', {
    resolveCaller: (c, d, r) => t.services.archive.resolveCaller(c, d, r),
    store: async (bucketId, bytes) => {
      await t.services.archive.ingest(bucketId, bytes, 'dimse');
    },
    onRefused: (c, d, r, reason) => void t.services.archive.auditRefusedAssociation(c, d, r, reason),
  });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-dimse-'));
});
afterAll(async () => {
  dimse.close();
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const storescu = (aet: string, aec: string, files: string[]) =>
  run('storescu', ['-aet', aet, '-aec', aec, '127.0.0.1', String(port), ...files], {
    env: { ...process.env, SCU_TCP_NODELAY: '1' },
  });

describe('DICOM C-ECHO and C-STORE SCP (DCMTK as the peer)', () => {
  it('answers C-ECHO from a registered modality', async () => {
    await expect(
      run('echoscu', ['-aet', 'DEMO_MODALITY', '-aec', 'YYP', '127.0.0.1', String(port)]),
    ).resolves.toBeDefined();
  });

  it("stores a multi-series CT study into the modality's organization, once even when re-sent", async () => {
    const study = generateStudy({
      modality: 'CT',
      series: 2,
      instancesPerSeries: 5,
      rows: 64,
      columns: 64,
      patientName: '张三',
      charset: 'GB18030',
      patientId: 'P-DIMSE-1',
    });
    const files = await writeStudy(path.join(dir, 'ct'), study);
    await storescu('DEMO_MODALITY', 'YYP', files);
    await storescu('DEMO_MODALITY', 'YYP', files.slice(0, 3));
    const db = t.db.database.db;
    const [rad] = await db.select().from(buckets).where(eq(buckets.code, 'RH-RAD'));
    const rows = await db
      .select()
      .from(exams)
      .where(and(eq(exams.bucketId, rad!.id), eq(exams.storeUid, study.studyInstanceUid)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      patientName: '张三',
      patientId: 'P-DIMSE-1',
      modality: 'CT',
      seriesCount: 2,
      instanceCount: 10,
      source: 'dimse',
      hasImage: true,
    });
    expect(await db.select().from(series).where(eq(series.examId, rows[0]!.id))).toHaveLength(2);
    expect(await db.select().from(instances).where(eq(instances.examId, rows[0]!.id))).toHaveLength(10);
  });

  it('refuses an unregistered calling AE and a wrong called AE at association, and audits it', async () => {
    const study = generateStudy({ modality: 'DX', rows: 32, columns: 32 });
    const files = await writeStudy(path.join(dir, 'dx'), study);
    await expect(storescu('STRANGER', 'YYP', files)).rejects.toThrow();
    await expect(storescu('DEMO_MODALITY', 'NOT_YYP', files)).rejects.toThrow();
    const db = t.db.database.db;
    expect(await db.select().from(exams).where(eq(exams.storeUid, study.studyInstanceUid))).toHaveLength(0);
    // The refusal is audited right after the reject PDU goes out: wait for the row.
    let audit = await db.select().from(auditLogs).where(eq(auditLogs.action, 'dicom.association.refused'));
    for (let i = 0; i < 40 && audit.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 50));
      audit = await db.select().from(auditLogs).where(eq(auditLogs.action, 'dicom.association.refused'));
    }
    const reasons = audit.map((a) => a.details as { callingAe: string; reason: string });
    expect(reasons).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ callingAe: 'STRANGER', reason: 'calling' }),
        expect.objectContaining({ callingAe: 'DEMO_MODALITY', reason: 'called' }),
      ]),
    );
  });
});
