import type { NotificationList, NotificationStatus } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLogs, exams, notifications } from '../../db/schema.js';
import { generateStudy, type GeneratedStudy, type StudyOptions } from '../../dicom/testdata/generate.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { listenOnLoopback, uploadClient } from '../../test/tus-client.js';
import { joinOrganization, makeGroupMember, makeMember, makeOrganization } from '../../test/factories.js';

let t: TestApp;
let base: string;
let radId: string;
let groupId: string;
let uploadToken: string;
const ids: Record<string, string> = {};
const tokens: Record<string, string> = {};
const { send } = uploadClient(() => base);

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  base = await listenOnLoopback(t);
  // A hospital with privacy on: its radiology's admin, a senior doctor with view_privacy, a
  // doctor without it (sees masks), a technician who uploads, a registrar; a doctor of another group.
  const rad = await makeOrganization(t, { name: '放射科', group: { enablePrivacy: true } });
  radId = rad.bucketId;
  groupId = rad.groupId;
  const groupadmin = await makeGroupMember(t, groupId, 1);
  await joinOrganization(t, radId, groupadmin.accountId, { level: 'admin', groupLevel: 1 });
  const built = {
    groupadmin,
    senior: await makeMember(t, radId, { actions: ['exam_get', 'view_privacy', 'report_upsert', 'report_approval'] }),
    doctor: await makeMember(t, radId, { actions: ['exam_get', 'report_upsert'] }),
    tech: await makeMember(t, radId, { actions: ['exam_get', 'exam_update', 'exam_upload', 'attachment_upload'] }),
    registrar: await makeMember(t, radId, { actions: ['exam_get', 'registry_create'] }),
    teledoctor: await makeMember(t, (await makeOrganization(t)).bucketId, { actions: ['exam_get', 'report_upsert'] }),
  };
  for (const [u, a] of Object.entries(built)) {
    ids[u] = a.accountId;
    tokens[u] = a.token;
  }
  const issued = await t.as(tokens.groupadmin!).post(`buckets/${radId}/upload/token`);
  uploadToken = (issued.json() as { token: string }).token;
});
afterAll(async () => {
  await t.close();
});

/** Uploads the instances with the public link (or the wizard, as tech), closes the session, waits for deliveries. */
async function upload(study: GeneratedStudy, via: 'token' | 'web' = 'token'): Promise<string> {
  const session =
    via === 'token'
      ? await t.call('POST', 'uploads/by-token', { body: { token: uploadToken } })
      : await t.as(tokens.tech!).post(`buckets/${radId}/studies/upload`);
  expect(session.statusCode).toBe(201);
  const sessionToken = (session.json() as { sessionToken: string }).sessionToken;
  for (const i of study.instances) await send(sessionToken, i.bytes, i.fileName);
  const done = await t.call('POST', 'exams/post-upload', { body: { sessionToken } });
  expect(done.statusCode).toBe(200);
  await t.services.notifications.whenIdle();
  const [exam] = await t.db.database.db.select().from(exams).where(eq(exams.storeUid, study.studyInstanceUid));
  return exam!.id;
}

function study(opts: Partial<StudyOptions> = {}): GeneratedStudy {
  return generateStudy({ modality: 'DX', rows: 16, columns: 16, ...opts });
}

async function notifyMembers(usernames: string[]): Promise<void> {
  const res = await t
    .as(tokens.groupadmin!)
    .put(`buckets/${radId}`, { notifications: { uploadNotifyAccountIds: usernames.map((u) => ids[u]!) } });
  expect(res.statusCode).toBe(200);
}

async function recipientsOf(examId: string): Promise<string[]> {
  const rows = await t.db.database.db.select().from(notifications).where(eq(notifications.examId, examId));
  const byId = new Map(Object.entries(ids).map(([u, id]) => [id, u]));
  return rows.map((r) => byId.get(r.accountId) ?? r.accountId).sort();
}

async function list(username: string, query = ''): Promise<NotificationList> {
  const res = await t.as(tokens[username]!).get(`notifications${query}`);
  expect(res.statusCode).toBe(200);
  return res.json() as NotificationList;
}

describe('delivery of new-upload notifications', () => {
  it('notifies nobody when the organization names nobody', async () => {
    await notifyMembers([]);
    expect(await recipientsOf(await upload(study()))).toEqual([]);
  });

  it('notifies exactly the one member named, with the exam of spec 000 §3', async () => {
    await notifyMembers(['senior']);
    t.clock.advance(1000);
    const examId = await upload(
      study({ patientName: '王^小明', charset: 'GB18030', studyDate: '20261121', studyTime: '093005' }),
    );
    expect(await recipientsOf(examId)).toEqual(['senior']);
    const [row] = await t.db.database.db.select().from(notifications).where(eq(notifications.examId, examId));
    expect(row).toMatchObject({
      kind: 'exam_uploaded',
      bucketId: radId,
      groupId,
      readAt: null,
      payload: {
        id: examId,
        patientName: '王^小明',
        modality: 'DX',
        bodyPart: 'CHEST',
        examTime: '2026-11-21T09:30:05',
        bucketName: '放射科',
      },
    });
  });

  it('notifies both members named, once per exam however many uploads follow into the study', async () => {
    await notifyMembers(['senior', 'doctor']);
    const first = study({ patientId: 'NOTIFY-TWICE' });
    const examId = await upload(first);
    expect(await recipientsOf(examId)).toEqual(['doctor', 'senior']);
    // A later upload into the same study adds an instance to the exam, and no notification.
    const more = study({ patientId: 'NOTIFY-TWICE', studyInstanceUid: first.studyInstanceUid });
    expect(await upload(more)).toBe(examId);
    expect(await recipientsOf(examId)).toEqual(['doctor', 'senior']);
    // A repeated delivery for the exam adds nothing either.
    expect(await t.services.notifications.notifyExamUploaded(examId)).toEqual([]);
    expect(await recipientsOf(examId)).toEqual(['doctor', 'senior']);
  });

  it('skips a named member who has left the organization', async () => {
    await notifyMembers(['senior', 'registrar']);
    const removed = await t.as(tokens.groupadmin!).del(`buckets/${radId}/members/${ids.registrar}`);
    expect(removed.statusCode).toBe(204);
    expect(await recipientsOf(await upload(study()))).toEqual(['senior']);
  });

  it('does not notify for uploads by the wizard, STOW-RS or DICOM (the spec ties it to the upload token)', async () => {
    await notifyMembers(['senior']);
    expect(await recipientsOf(await upload(study(), 'web'))).toEqual([]);
    for (const source of ['stow', 'dimse'] as const) {
      const r = await t.services.archive.ingest(radId, study().instances[0]!.bytes, source);
      await t.services.notifications.whenIdle();
      expect(r.newExam).toBe(true);
      expect(await recipientsOf(r.examId)).toEqual([]);
    }
  });

  it('never fails the upload when a notification cannot be made', async () => {
    await notifyMembers(['senior']);
    const spy = vi
      .spyOn(t.services.notifications, 'notifyExamUploaded')
      .mockRejectedValueOnce(new Error('database went away'));
    try {
      const s = study();
      const session = await t.call('POST', 'uploads/by-token', { body: { token: uploadToken } });
      const sessionToken = (session.json() as { sessionToken: string }).sessionToken;
      await send(sessionToken, s.instances[0]!.bytes, 'a.dcm');
      const done = await t.call('POST', 'exams/post-upload', { body: { sessionToken } });
      await t.services.notifications.whenIdle();
      expect(done.json()).toMatchObject({ stored: 1, skipped: [] });
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('reading notifications', () => {
  it('lists the newest first (5 by default and at most), with the unread count, and marks them read', async () => {
    await notifyMembers(['senior', 'doctor']);
    const made: string[] = [];
    for (let i = 0; i < 6; i++) {
      t.clock.advance(60_000);
      made.push(await upload(study({ patientId: `LIST-${i}` })));
    }
    const all = await list('senior');
    expect(all.items.map((n) => n.exam.id)).toEqual(made.slice(1).reverse());
    expect(all.unread).toBeGreaterThanOrEqual(6);
    expect((await list('senior', '?limit=2')).items.map((n) => n.exam.id)).toEqual(made.slice(4).reverse());
    for (const bad of ['?limit=6', '?limit=0', '?limit=two', '?limit=1.5']) {
      const res = await t.as(tokens.senior!).get(`notifications${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ code: 'ValidationError' });
    }

    const status = (await t.as(tokens.senior!).get('notifications/status')).json() as NotificationStatus;
    expect(status).toEqual({ unread: all.unread, latestId: all.items[0]!.id });

    const newest = all.items[0]!;
    expect((await t.as(tokens.senior!).post(`notifications/${newest.id}/read`)).statusCode).toBe(204);
    const after = await list('senior');
    expect(after.unread).toBe(all.unread - 1);
    const readAt = after.items[0]!.readAt;
    expect(readAt).toBe(t.clock.now().toISOString());
    // Marking again keeps the first read time.
    t.clock.advance(1000);
    expect((await t.as(tokens.senior!).post(`notifications/${newest.id}/read`)).statusCode).toBe(204);
    expect((await list('senior')).items[0]!.readAt).toBe(readAt);

    expect((await t.as(tokens.senior!).post('notifications/read-all')).statusCode).toBe(204);
    const cleared = await list('senior');
    expect(cleared.unread).toBe(0);
    expect(cleared.items.every((n) => n.readAt !== null)).toBe(true);
    // The doctor's copies are the doctor's own: still unread.
    expect((await list('doctor')).unread).toBeGreaterThanOrEqual(6);
  });

  it("answers 404 to another account's notification id, and changes nothing", async () => {
    await notifyMembers(['senior']);
    await upload(study());
    const mine = (await list('senior')).items[0]!;
    expect(mine.readAt).toBeNull();
    for (const other of ['doctor', 'teledoctor']) {
      const res = await t.as(tokens[other]!).post(`notifications/${mine.id}/read`);
      expect(res.statusCode, other).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NotFound' });
      expect((await list(other)).items.map((n) => n.id)).not.toContain(mine.id);
    }
    expect((await t.as(tokens.senior!).post('notifications/no-such-id/read')).statusCode).toBe(404);
    expect((await list('senior')).items[0]).toMatchObject({ id: mine.id, readAt: null });
    // teledoctor of another group has no notifications at all.
    expect(await list('teledoctor')).toEqual({ items: [], unread: 0 });
  });

  it('answers 401 without a token', async () => {
    for (const [method, url] of [
      ['GET', 'notifications'],
      ['GET', 'notifications/status'],
      ['POST', 'notifications/read-all'],
      ['POST', 'notifications/x/read'],
    ] as const) {
      const res = await t.call(method, url, method === 'POST' ? { body: {} } : {});
      expect(res.statusCode, url).toBe(401);
    }
  });

  it('masks the patient name for a member without view_privacy, and audits only the names it shows', async () => {
    // senior is 审核医生 (holds view_privacy); doctor is 报告医生 (does not).
    await notifyMembers(['senior', 'doctor']);
    t.clock.advance(60_000);
    const examId = await upload(study({ patientName: '李^四', charset: 'GB18030' }));
    const db = t.db.database.db;
    const audits = (actorId: string) =>
      db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'notification.list'), eq(auditLogs.actorId, actorId)));

    const before = (await audits(ids.doctor!)).length;
    const masked = (await list('doctor')).items[0]!;
    expect(masked).toMatchObject({ masked: true, exam: { id: examId, patientName: '李*', bucketName: '放射科' } });
    expect(await audits(ids.doctor!)).toHaveLength(before);

    const shown = (await list('senior')).items[0]!;
    expect(shown).toMatchObject({ masked: false, exam: { id: examId, patientName: '李^四' } });
    const rows = await audits(ids.senior!);
    expect(rows.at(-1)).toMatchObject({ outcome: 'success', bucketId: radId, targetType: 'exam' });
    expect((rows.at(-1)!.details as { examIds: string[] }).examIds).toContain(examId);

    // The status poll carries no patient data and writes no audit row.
    const count = rows.length;
    await t.as(tokens.senior!).get('notifications/status');
    expect(await audits(ids.senior!)).toHaveLength(count);

    // A member who loses the organization sees the name masked from then on.
    expect((await t.as(tokens.groupadmin!).del(`buckets/${radId}/members/${ids.senior}`)).statusCode).toBe(204);
    expect((await list('senior')).items[0]).toMatchObject({ masked: true, exam: { patientName: '李*' } });
  });
});
