import type { ExamItem } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMaskingHospital, makePrivacyWorld, privacyStudy } from './factories-privacy.js';
import { startTestApp, type TestApp } from './harness.js';

/** The privacy factories build the masking cases they promise (test/factories-privacy.ts). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ seed: false });
});
afterAll(async () => {
  await t.close();
});

async function seen(token: string, bucketId: string, patientId: string): Promise<ExamItem> {
  const { examId } = await t.services.archive.ingest(
    bucketId,
    privacyStudy('赵^磊', patientId).instances[0]!.bytes,
    'web',
  );
  const res = await t.as(token).get(`exams/${examId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ExamItem;
}

describe('privacy factories', () => {
  it('makeMaskingHospital: privacy on; its reporting doctor sees masks, its approving doctor does not', async () => {
    const h = await makeMaskingHospital(t, ['doctor', 'senior']);
    expect(await seen(h.doctor.token, h.org.bucketId, 'FPV-1')).toMatchObject({ masked: true, patientName: '赵*' });
    expect(await seen(h.senior.token, h.org.bucketId, 'FPV-2')).toMatchObject({ masked: false, patientName: '赵^磊' });
  });

  it('makePrivacyWorld: the hospital shows the patient to its registrar, the tele centre masks it to its reader', async () => {
    const w = await makePrivacyWorld(t, ['registrar', 'teledoctor', 'expert']);
    expect(await seen(w.tok.registrar!, w.hospital.org.bucketId, 'FPV-3')).toMatchObject({ masked: false });
    expect(await seen(w.tok.teledoctor!, w.tele.org.bucketId, 'FPV-4')).toMatchObject({ masked: true });
    expect(await seen(w.tok.expert!, w.tele.org.bucketId, 'FPV-5')).toMatchObject({ masked: false });
    expect(w.hospital.org.groupId).not.toBe(w.tele.org.groupId);
  });
});
