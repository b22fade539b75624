import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Device } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStudy, writeStudy } from '../../dicom/testdata/generate.js';
import { retrieve } from '../../dicom/testdata/qrscu.js';
import { startTestDimse } from '../../test/dimse.js';
import { makeMember, makeModality, makeOrganization } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { startOrthanc, type TestOrthanc } from '../../test/orthanc.js';
import { ok } from '../../test/factories-platform.js';
import { DEFAULT_STABLE_SECONDS } from './index.js';

/**
 * Orthanc (Debian's) as the hospital's long-term archive: yyp forwards every new CT to it on
 * arrival, and a workstation moves a study from yyp into it (C-MOVE).
 */
const run = promisify(execFile);
let t: TestApp;
let orthanc: TestOrthanc;
let dimse: { close(): void; port: number };
let dir: string;
let bucketId: string;
let token: string;
const CT_AE = 'CT_ORTH_1';
const WORKSTATION = 'WS_ORTH';

beforeAll(async () => {
  [t, orthanc] = await Promise.all([startTestApp({ seed: false }), startOrthanc('LONGTERM')]);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-orthanc-fwd-'));
  ({ bucketId } = await makeOrganization(t));
  token = (await makeMember(t, bucketId, { level: 'admin' })).token;
  await makeModality(t, bucketId, { aeTitle: CT_AE });
  await makeModality(t, bucketId, { aeTitle: WORKSTATION, host: '127.0.0.1' });
  dimse = await startTestDimse(t);
});
afterAll(async () => {
  dimse.close();
  await Promise.all([orthanc.stop(), t.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('yyp and Orthanc', () => {
  let archive: Device;
  it('forwards every new CT to the long-term archive automatically', async () => {
    archive = ok<Device>(
      await t.as(token).post(`buckets/${bucketId}/devices`, {
        name: '长期归档 Orthanc',
        aeTitle: orthanc.aet,
        host: '127.0.0.1',
        port: orthanc.dicomPort,
      }),
      201,
    );
    ok(
      await t
        .as(token)
        .post(`buckets/${bucketId}/forwarding-rules`, { name: 'CT', destinationId: archive.id, modality: 'CT' }),
      201,
    );
    const ct = generateStudy({
      modality: 'CT',
      series: 2,
      instancesPerSeries: 4,
      rows: 64,
      columns: 64,
      patientName: 'WANG^FANG',
    });
    const files = await writeStudy(path.join(dir, 'ct'), ct);
    await run('storescu', ['-aet', CT_AE, '-aec', 'YYP', '127.0.0.1', String(dimse.port), ...files]);
    await t.services.forwarding.whenIdle();
    t.clock.advance((DEFAULT_STABLE_SECONDS + 1) * 1000);
    while ((await t.services.jobs.runDue()) > 0) {
      /* forwarding, then its send */
    }
    const studies = await orthanc.get<string[]>('/studies');
    expect(studies).toHaveLength(1);
    const study = await orthanc.get<{ MainDicomTags: { StudyInstanceUID: string }; Series: string[] }>(
      `/studies/${studies[0]}`,
    );
    expect(study.MainDicomTags.StudyInstanceUID).toBe(ct.studyInstanceUid);
    expect(study.Series).toHaveLength(2);
    expect(await orthanc.get<string[]>('/instances')).toHaveLength(8);
  });

  it('moves a study from yyp into Orthanc at a workstation’s request (C-MOVE)', async () => {
    const mr = generateStudy({ modality: 'MR', instancesPerSeries: 3, rows: 64, columns: 64 });
    for (const i of mr.instances) await t.services.archive.ingest(bucketId, i.bytes, 'dimse');
    const moved = await retrieve('movescu', dimse.port, WORKSTATION, [
      '-S',
      '-aem',
      orthanc.aet,
      '-k',
      'QueryRetrieveLevel=STUDY',
      '-k',
      `StudyInstanceUID=${mr.studyInstanceUid}`,
    ]);
    expect(moved.ok, moved.log).toBe(true);
    const found = await fetch(`${orthanc.http}/tools/lookup`, { method: 'POST', body: mr.studyInstanceUid });
    const [hit] = (await found.json()) as { ID: string; Type: string }[];
    expect(hit?.Type).toBe('Study');
    const instances = await orthanc.get<unknown[]>(`/studies/${hit!.ID}/instances`);
    expect(instances).toHaveLength(3);
  });
});
