import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../../db/schema.js';
import {
  COMMITMENT_SOP_CLASS,
  COMMITMENT_SOP_INSTANCE,
  FAILURE_REASON,
  readCommitmentReport,
} from '../../dicom/commitment.js';
import { TAG, commandUs } from '../../dicom/dimse-command.js';
import { DatasetBuilder, EXPLICIT_VR_LE } from '../../dicom/dataset-writer.js';
import { generateStudy, type GeneratedStudy } from '../../dicom/testdata/generate.js';
import { TestScu } from '../../dicom/testdata/scu.js';
import { startTestDimse } from '../../test/dimse.js';
import { makeModality, makeOrganization } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { startOrthanc, type TestOrthanc } from '../../test/orthanc.js';

/** Storage Commitment Push Model SCP (issue 28 item 3): a test SCU on the same association, Orthanc on a new one. */
let t: TestApp;
let dimse: { close(): void; port: number };
let orthanc: TestOrthanc;
let orgA: string;
let orgB: string;
let stored: GeneratedStudy;
let theirs: GeneratedStudy;
const MODALITY = 'CT_COMMIT';
const ORTHANC_AE = 'ORTHANC_SCU';

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  ({ bucketId: orgA } = await makeOrganization(t));
  ({ bucketId: orgB } = await makeOrganization(t));
  await makeModality(t, orgA, { aeTitle: MODALITY, host: '127.0.0.1' });
  stored = generateStudy({ modality: 'CT', instancesPerSeries: 3, rows: 32, columns: 32 });
  theirs = generateStudy({ modality: 'CT', instancesPerSeries: 1, rows: 32, columns: 32 });
  for (const i of stored.instances) await t.services.archive.ingest(orgA, i.bytes, 'dimse');
  for (const i of theirs.instances) await t.services.archive.ingest(orgB, i.bytes, 'dimse');
  dimse = await startTestDimse(t);
  orthanc = await startOrthanc(ORTHANC_AE, { yyp: ['YYP', '127.0.0.1', dimse.port] });
  await makeModality(t, orgA, { aeTitle: ORTHANC_AE, host: '127.0.0.1', port: orthanc.dicomPort });
});
afterAll(async () => {
  dimse.close();
  await orthanc.stop();
  await t.close();
});

const request = (transactionUid: string, refs: { sopClassUid: string; sopInstanceUid: string }[]) =>
  new DatasetBuilder('')
    .text(0x00081195, 'UI', transactionUid)
    .sequence(
      0x00081199,
      refs.map((r) =>
        new DatasetBuilder('').text(0x00081150, 'UI', r.sopClassUid).text(0x00081155, 'UI', r.sopInstanceUid),
      ),
    )
    .toBuffer(true);

describe('storage commitment', () => {
  it('reports on the same association when the requestor takes that role: committed and failed with reasons', async () => {
    const scu = await TestScu.associate(dimse.port, {
      callingAe: MODALITY,
      contexts: [{ id: 1, abstractSyntax: COMMITMENT_SOP_CLASS, transferSyntaxes: [EXPLICIT_VR_LE] }],
      roles: [{ sopClass: COMMITMENT_SOP_CLASS, scu: true, scp: true }],
    });
    const [first, second] = stored.instances;
    const refs = [
      { sopClassUid: first!.sopClassUid, sopInstanceUid: first!.sopInstanceUid },
      { sopClassUid: '1.2.840.10008.5.1.4.1.1.4', sopInstanceUid: second!.sopInstanceUid }, // stored as CT, asked as MR
      { sopClassUid: first!.sopClassUid, sopInstanceUid: '1.2.3.4.5.6.7' }, // never stored
      { sopClassUid: theirs.instances[0]!.sopClassUid, sopInstanceUid: theirs.instances[0]!.sopInstanceUid }, // another organization's
    ];
    scu.send(
      1,
      {
        commandField: 0x0130,
        requestedSopClassUid: COMMITMENT_SOP_CLASS,
        requestedSopInstanceUid: COMMITMENT_SOP_INSTANCE,
        actionTypeId: 1,
      },
      request('1.2.826.0.1.3680043.10.1187.99.1', refs),
    );
    const [actionRsp] = await scu.responsesUntilFinal();
    expect(commandUs(actionRsp!.command, TAG.commandField)).toBe(0x8130);
    expect(actionRsp!.status).toBe(0);
    const [event] = await scu.responsesUntilFinal();
    expect(commandUs(event!.command, TAG.commandField)).toBe(0x0100);
    expect(commandUs(event!.command, TAG.eventTypeId)).toBe(2);
    scu.respond(1, {
      commandField: 0x8100,
      messageId: commandUs(event!.command, TAG.messageId)!,
      status: 0,
      sopClassUid: COMMITMENT_SOP_CLASS,
      sopInstanceUid: COMMITMENT_SOP_INSTANCE,
    });
    const report = readCommitmentReport(event!.dataset!, EXPLICIT_VR_LE);
    expect(report.transactionUid).toBe('1.2.826.0.1.3680043.10.1187.99.1');
    expect(report.committed.map((r) => r.sopInstanceUid)).toEqual([first!.sopInstanceUid]);
    expect(report.failed.map((f) => [f.sopInstanceUid, f.reason])).toEqual([
      [second!.sopInstanceUid, FAILURE_REASON.classInstanceConflict],
      ['1.2.3.4.5.6.7', FAILURE_REASON.noSuchInstance],
      [theirs.instances[0]!.sopInstanceUid, FAILURE_REASON.noSuchInstance],
    ]);
    await scu.release();
    await expect
      .poll(async () => {
        const rows = await t.db.database.db
          .select()
          .from(auditLogs)
          .where(and(eq(auditLogs.action, 'dimse.commitment'), eq(auditLogs.bucketId, orgA)));
        return rows.map((r) => r.details);
      })
      .toContainEqual(expect.objectContaining({ committed: 1, failed: 3, delivery: 'same' }));
  });

  it('answers a request that is no commitment request with processing failure', async () => {
    const scu = await TestScu.associate(dimse.port, {
      callingAe: MODALITY,
      contexts: [{ id: 1, abstractSyntax: COMMITMENT_SOP_CLASS, transferSyntaxes: [EXPLICIT_VR_LE] }],
    });
    scu.send(
      1,
      {
        commandField: 0x0130,
        requestedSopClassUid: COMMITMENT_SOP_CLASS,
        requestedSopInstanceUid: COMMITMENT_SOP_INSTANCE,
        actionTypeId: 1,
      },
      new DatasetBuilder('').text(0x00081195, 'UI', '1.2.3').toBuffer(true),
    );
    const [rsp] = await scu.responsesUntilFinal();
    expect(rsp!.status).toBe(0x0110);
    await scu.release();
  });

  it('commits what Orthanc sent, reported to Orthanc on a new association', async () => {
    const study = generateStudy({ modality: 'MR', instancesPerSeries: 3, rows: 32, columns: 32 });
    for (const i of study.instances) await orthanc.post('/instances', i.bytes);
    const [studyId] = await orthanc.get<string[]>('/studies');
    const sent = await orthanc.post<{ StorageCommitmentTransactionUID?: string }>('/modalities/yyp/store', {
      Resources: [studyId],
      StorageCommitment: true,
      Synchronous: true,
    });
    const uid = sent.StorageCommitmentTransactionUID!;
    expect(uid).toBeTruthy();
    await expect
      .poll(async () => (await orthanc.get<{ Status: string }>(`/storage-commitment/${uid}`)).Status, {
        timeout: 10_000,
      })
      .toBe('Success');
    const report = await orthanc.get<{ Success: { SOPInstanceUID: string }[]; Failures: unknown[] }>(
      `/storage-commitment/${uid}`,
    );
    expect(report.Success.map((s) => s.SOPInstanceUID).sort()).toEqual(
      study.instances.map((i) => i.sopInstanceUid).sort(),
    );
    expect(report.Failures).toEqual([]);
  });
});
