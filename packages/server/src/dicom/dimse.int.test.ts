import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, exams, instances, series } from '../db/schema.js';
import { startDimseWithModality } from '../test/factories-archive.js';
import { associateRq } from '../test/raw-association.js';
import { startTestApp, type TestApp } from '../test/harness.js';
import { generateStudy, writeStudy } from './testdata/generate.js';

const run = promisify(execFile);
let t: TestApp;
let port: number;
let dimse: { close(): void; port: number };
let dir: string;
/** The organization the modality (AE title AE, registered) sends to. */
let radId: string;
const AE = 'CT_ROOM_1';

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  ({ dimse, bucketId: radId } = await startDimseWithModality(t, AE));
  port = dimse.port;
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
    await expect(run('echoscu', ['-aet', AE, '-aec', 'YYP', '127.0.0.1', String(port)])).resolves.toBeDefined();
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
    await storescu(AE, 'YYP', files);
    await storescu(AE, 'YYP', files.slice(0, 3));
    const db = t.db.database.db;
    const rows = await db
      .select()
      .from(exams)
      .where(and(eq(exams.bucketId, radId), eq(exams.storeUid, study.studyInstanceUid)));
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
    await expect(storescu(AE, 'NOT_YYP', files)).rejects.toThrow();
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
        expect.objectContaining({ callingAe: AE, reason: 'called' }),
      ]),
    );
  });
});

/* Raw Upper Layer exchanges for what DCMTK's tools never send: hostile or odd peers. */

/** Sends `messages` one after another (each after the previous answer) and collects the answers. */
function exchange(messages: Buffer[]): Promise<{ received: Buffer; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let sent = 0;
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ received: Buffer.concat(chunks), closed });
    };
    const timer = setTimeout(() => finish(false), 3000);
    socket.on('connect', () => socket.write(messages[sent++]!));
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      if (sent < messages.length) socket.write(messages[sent++]!);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => finish(true));
  });
}

describe('Upper Layer robustness (raw sockets)', () => {
  it('answers each presentation context: storage, verification, the worklist and Q/R accepted, others refused with reason 3', async () => {
    const { received } = await exchange([
      associateRq(AE, [
        { id: 1, abstract: '1.2.840.10008.5.1.4.1.1.2', ts: '1.2.840.10008.1.2' },
        { id: 3, abstract: '1.2.840.10008.5.1.4.31', ts: '1.2.840.10008.1.2' }, // MWL find: served (registry)
        { id: 7, abstract: '1.2.840.10008.5.1.4.38.2', ts: '1.2.840.10008.1.2' }, // Hanging Protocol FIND: not served
        { id: 9, abstract: '1.2.840.10008.5.1.4.1.2.2.1', ts: '1.2.840.10008.1.2' }, // Study Root C-FIND: served
        { id: 5, abstract: '1.2.840.10008.1.1', ts: '1.2.840.10008.1.2.99' }, // unknown transfer syntax
      ]),
      Buffer.from([0x05, 0, 0, 0, 0, 4, 0, 0, 0, 0]), // A-RELEASE-RQ
    ]);
    // A-RELEASE-RP last, then the SCP closes.
    expect([...received.subarray(received.length - 10)]).toEqual([0x06, 0, 0, 0, 0, 4, 0, 0, 0, 0]);
    expect(received[0]).toBe(0x02);
    const results = new Map<number, number>();
    for (let at = 6 + 68, end = 6 + received.readUInt32BE(2); at < end;) {
      const len = received.readUInt16BE(at + 2);
      if (received[at] === 0x21) results.set(received[at + 4]!, received[at + 6]!);
      at += 4 + len;
    }
    expect(Object.fromEntries(results)).toEqual({ 1: 0, 3: 0, 5: 4, 7: 3, 9: 0 });
  });

  it('aborts on bytes that are not a PDU, on an oversized PDU and on data for a context it refused; stays up', async () => {
    const garbage = await exchange([Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n')]);
    expect(garbage.closed).toBe(true);
    expect(garbage.received[0]).toBe(0x07);

    const huge = Buffer.alloc(6);
    huge[0] = 0x04;
    huge.writeUInt32BE(0x7fffffff, 2);
    const oversized = await exchange([
      associateRq(AE, [{ id: 1, abstract: '1.2.840.10008.1.1', ts: '1.2.840.10008.1.2' }]),
      huge,
    ]);
    expect(oversized.received[0]).toBe(0x02);
    expect(oversized.received.includes(Buffer.from([0x07, 0, 0, 0, 0, 4]))).toBe(true);
    expect(oversized.closed).toBe(true);

    const pdata = Buffer.from([0x04, 0, 0, 0, 0, 8, 0, 0, 0, 4, 7, 3, 0, 0]); // a PDV for context 7
    const wrongContext = await exchange([
      associateRq(AE, [{ id: 1, abstract: '1.2.840.10008.1.1', ts: '1.2.840.10008.1.2' }]),
      pdata,
    ]);
    expect(wrongContext.received.includes(Buffer.from([0x07, 0, 0, 0, 0, 4]))).toBe(true);

    await expect(run('echoscu', ['-aet', AE, '-aec', 'YYP', '127.0.0.1', String(port)])).resolves.toBeDefined();
  });

  it('serves several associations at once', async () => {
    const study = generateStudy({ modality: 'MR', series: 4, instancesPerSeries: 3, rows: 32, columns: 32 });
    const files = await writeStudy(path.join(dir, 'mr'), study);
    await Promise.all([0, 1, 2, 3].map((k) => storescu(AE, 'YYP', files.slice(k * 3, k * 3 + 3))));
    const db = t.db.database.db;
    const [exam] = await db.select().from(exams).where(eq(exams.storeUid, study.studyInstanceUid));
    expect(exam).toMatchObject({ instanceCount: 12, seriesCount: 4, modality: 'MR' });
  });
});
