import { type ExamItem, type ExamPage } from '@yyp/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, exams, instances, series } from '../../db/schema.js';
import { generateStudy } from '../../dicom/testdata/generate.js';
import {
  advance,
  bucket,
  DAY,
  find,
  fx,
  id,
  ingest,
  login,
  sorted,
  tok,
  useExamListFixture,
} from './exams.list.fixture.js';

/** Exams over time: delete, recovery and purge; the new-exam poll; past exams; print status. */
useExamListFixture();

describe('delete, the deleted-exams view, recovery and purge', () => {
  const deleted = async (who: string) => (await fx.t.as(tok[who]!).post('exams/deleted-query', {})).json() as ExamPage;

  it('needs exam_delete in the exam’s organization', async () => {
    expect((await fx.t.as(tok.doctor!).del(`exams/${id.E}/delete`)).statusCode).toBe(403);
    expect((await fx.t.as(tok.teledoctor!).del(`exams/${id.E}/delete`)).statusCode).toBe(404);
    expect((await fx.t.as(tok.senior!).del(`exams/${id.A}/delete`)).statusCode).toBe(403);
    expect(await find([])).toContain('E');
  });

  it('hides a deleted exam, lists it as deleted for 30 days and recovers it', async () => {
    const api = fx.t.as(tok.senior!);
    const res = await api.del(`exams/${id.E}/delete`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { id: string; deletedTime: string; recoverableUntil: string };
    expect(body.id).toBe(id.E);
    expect(Date.parse(body.recoverableUntil) - Date.parse(body.deletedTime)).toBe(30 * DAY);
    expect(await find([])).not.toContain('E');
    expect((await api.post('exams/query/count', {})).json()).toEqual({ count: 3 });
    expect((await api.get(`exams/${id.E}`)).statusCode).toBe(404);
    expect((await api.del(`exams/${id.E}/delete`)).statusCode).toBe(404);

    const view = await deleted('senior');
    expect(view.count).toBe(1);
    expect(view.exams[0]).toMatchObject({
      id: id.E,
      deletedTime: body.deletedTime,
      recoverableUntil: body.recoverableUntil,
    });
    // Filters apply to the deleted view too; without exam_delete nothing is listed.
    expect(
      (
        await fx.t
          .as(tok.senior!)
          .post('exams/deleted-query', { filters: [{ field: 'modality', operator: 'eq', values: ['CT'] }] })
      ).json(),
    ).toEqual({ exams: [], count: 0 });
    expect(await deleted('doctor')).toEqual({ exams: [], count: 0 });
    expect((await fx.t.as(tok.doctor!).post(`reports/${id.E}/recovery`)).statusCode).toBe(403);
    expect((await fx.t.as(tok.teledoctor!).post(`reports/${id.E}/recovery`)).statusCode).toBe(404);

    const audit = await fx.t.db.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'exam.delete'), eq(auditLogs.targetId, id.E!)));
    expect(audit).toHaveLength(1);

    await advance(29 * DAY);
    const back = await fx.t.as(tok.senior!).post(`reports/${id.E}/recovery`);
    expect(back.statusCode, back.body).toBe(200);
    expect((back.json() as ExamItem).deletedTime).toBeNull();
    expect(await find([])).toContain('E');
    expect((await deleted('senior')).count).toBe(0);
    expect((await fx.t.as(tok.senior!).post(`reports/${id.E}/recovery`)).statusCode).toBe(409);
  });

  it('refuses recovery after 30 days, and the purge removes the rows and their files', async () => {
    let api = fx.t.as(tok.senior!);
    const db = fx.t.db.database.db;
    const keys = (await db.select({ key: instances.blobKey }).from(instances).where(eq(instances.examId, id.E!))).map(
      (r) => r.key,
    );
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect(await fx.t.blobs.size(k)).not.toBeNull();
    expect((await api.del(`exams/${id.E}/delete`)).statusCode).toBe(200);

    await advance(31 * DAY);
    api = fx.t.as(tok.senior!);
    const late = await api.post(`reports/${id.E}/recovery`);
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({ code: 'ValidationError' });
    expect(late.json().message).toContain('within 30 days');
    expect((await deleted('senior')).count).toBe(0);
    // Nothing changed: the exam is still there, deleted, until the purge.
    expect((await db.select().from(exams).where(eq(exams.id, id.E!)))[0]!.deletedTime).not.toBeNull();

    expect(await fx.t.services.examList.purge()).toBe(1);
    expect(await db.select().from(exams).where(eq(exams.id, id.E!))).toEqual([]);
    expect(await db.select().from(series).where(eq(series.examId, id.E!))).toEqual([]);
    expect(await db.select().from(instances).where(eq(instances.examId, id.E!))).toEqual([]);
    for (const k of keys) expect(await fx.t.blobs.size(k)).toBeNull();
    expect(await fx.t.services.examList.purge()).toBe(0);
    // Live exams are untouched.
    expect(sorted(await find([]))).toEqual(['A', 'B', 'C']);
    expect((await api.post(`reports/${id.E}/recovery`)).statusCode).toBe(404);
  });

  it('removes a deleted exam for good on request (reports/{id}/delete), a live one only after deleting', async () => {
    const api = fx.t.as(tok.senior!);
    const db = fx.t.db.database.db;
    const examId = await ingest(bucket['RH-US']!, { modality: 'US', patientName: 'GONE^NOW', patientId: 'GONE-1' });
    expect((await api.post(`reports/${examId}/delete`)).statusCode).toBe(409);
    expect((await fx.t.as(tok.doctor!).post(`reports/${examId}/delete`)).statusCode).toBe(403);
    expect((await api.del(`exams/${examId}/delete`)).statusCode).toBe(200);
    const keys = (await db.select({ key: instances.blobKey }).from(instances).where(eq(instances.examId, examId))).map(
      (r) => r.key,
    );
    expect((await api.post(`reports/${examId}/delete`)).statusCode).toBe(204);
    expect(await db.select().from(exams).where(eq(exams.id, examId))).toEqual([]);
    for (const k of keys) expect(await fx.t.blobs.size(k)).toBeNull();
    expect((await api.post(`reports/${examId}/delete`)).statusCode).toBe(404);
  });
});

describe('POST exams/newly', () => {
  it('answers the newest 5 exams of the last 7 days, after `since`, masked like the list', async () => {
    await advance(8 * DAY); // everything above is now older than a week
    const api = () => fx.t.as(tok.senior!);
    expect((await api().post('exams/newly', {})).json()).toEqual({ exams: [], count: 0 });
    const fresh: string[] = [];
    for (let n = 0; n < 6; n++) {
      fresh.push(await ingest(bucket['RH-RAD']!, { modality: 'CT', patientName: `新^${n}`, charset: 'GB18030' }));
      fx.t.clock.advance(1000);
    }
    const all = (await api().post('exams/newly', {})).json() as ExamPage;
    expect(all.count).toBe(6);
    expect(all.exams.map((e) => e.id)).toEqual(fresh.slice(1).reverse());
    // The client passes the newest it has seen: only what came after it.
    const since = all.exams[2]!.created;
    const after = (await api().post('exams/newly', { since })).json() as ExamPage;
    expect(after.exams.map((e) => e.id)).toEqual(fresh.slice(4).reverse());
    // Masked for a caller without view_privacy; other tenants see none of them.
    const masked = (await fx.t.as(tok.doctor!).post('exams/newly', {})).json() as ExamPage;
    expect(masked.exams[0]).toMatchObject({ masked: true });
    expect(masked.exams[0]!.patientName).not.toBe('新^5');
    expect(masked.exams[0]!.patientName.startsWith('新')).toBe(true);
    expect(((await fx.t.as(tok.teledoctor!).post('exams/newly', {})).json() as ExamPage).exams).toEqual([]);
    // Bad input changes nothing and says what is wrong.
    expect((await api().post('exams/newly', { since: 'yesterday' })).statusCode).toBe(400);
    expect((await api().post('exams/newly', { limit: 50 })).statusCode).toBe(400);
  });
});

describe('POST exams/{id}/past and past/count', () => {
  it("lists the patient's other exams by patient ID and the group's birth-date mode, across organizations if allowed", async () => {
    const rad = bucket['RH-RAD']!;
    const us = bucket['RH-US']!;
    const p = (studyDate: string, patientBirthDate: string) => ({
      modality: 'CT' as const,
      patientId: 'PAST-1',
      patientName: 'PAST^ONE',
      studyDate,
      patientBirthDate,
    });
    const current = await ingest(rad, p('20261120', '19700101'));
    const prior = await ingest(rad, p('20251003', '19700101'));
    const shifted = await ingest(rad, p('20240515', '19700601')); // same ID, birth date 5 months off
    const other = await ingest(rad, p('20230101', '19900101')); // same ID, another person
    const elsewhere = await ingest(us, p('20220202', '19700101')); // same patient, another organization
    await ingest(rad, { modality: 'CT', patientId: 'PAST-2', studyDate: '20200101', patientBirthDate: '19700101' });
    const api = fx.t.as(tok.senior!);
    const ids = async () => ((await api.post(`exams/${current}/past`, {})).json() as ExamPage).exams.map((e) => e.id);
    const groupadmin = await login('groupadmin');
    const setGroup = (settings: Record<string, unknown>) =>
      fx.t.as(groupadmin).post(`groups/${fx.hospitalGroupId}/update`, { settings });

    // The default (shift_off): the same birth date exactly, in this organization, study date descending.
    expect(await ids()).toEqual([prior]);
    expect((await api.post(`exams/${current}/past/count`, {})).json()).toEqual({ count: 1 });
    expect((await setGroup({ dobMatchMode: 'shift_on' })).statusCode).toBe(200);
    expect(await ids()).toEqual([prior, shifted]);
    expect((await setGroup({ dobMatchMode: 'disabled' })).statusCode).toBe(200);
    expect(await ids()).toEqual([prior, shifted, other]);
    expect((await setGroup({ dobMatchMode: 'shift_off', crossOrgHistorySearch: true })).statusCode).toBe(200);
    expect(await ids()).toEqual([prior, elsewhere]);
    expect((await api.post(`exams/${current}/past`, { limit: 1, skip: 1 })).json()).toMatchObject({ count: 2 });
    expect(
      ((await api.post(`exams/${current}/past`, { limit: 1, skip: 1 })).json() as ExamPage).exams.map((e) => e.id),
    ).toEqual([elsewhere]);
    await setGroup({ crossOrgHistorySearch: false });
    // Another tenant cannot ask; unknown body fields are refused.
    expect((await fx.t.as(tok.teledoctor!).post(`exams/${current}/past`, {})).statusCode).toBe(404);
    expect((await api.post(`exams/${current}/past`, { patientId: 'PAST-2' })).statusCode).toBe(400);
  });
});

describe('POST exams/modify-print-status', () => {
  it('marks studies printed and back, all or none, only where the caller holds exam_update', async () => {
    const rad = bucket['RH-RAD']!;
    const a = generateStudy({ modality: 'DX', rows: 16, columns: 16 });
    const b = generateStudy({ modality: 'DX', rows: 16, columns: 16 });
    for (const s of [a, b]) await fx.t.services.archive.ingest(rad, s.instances[0]!.bytes, 'web');
    const uids = [a.studyInstanceUid, b.studyInstanceUid];
    const printedOf = async () =>
      (await fx.t.db.database.db.select().from(exams).where(inArray(exams.storeUid, uids))).map((e) => e.studyPrinted);
    const doctor = fx.t.as(tok.doctor!);
    const res = await doctor.post('exams/modify-print-status', { storeUids: uids, printed: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ updated: 2 });
    expect(await printedOf()).toEqual([true, true]);
    const listed = (await doctor.post('exams/page-query', {})).json() as ExamPage;
    expect(listed.exams.find((e) => e.storeUid === a.studyInstanceUid)?.printed).toBe(true);
    // One unknown study: nothing changes.
    const partial = await doctor.post('exams/modify-print-status', {
      storeUids: [...uids, '1.2.3.999'],
      printed: false,
    });
    expect(partial.statusCode).toBe(404);
    expect(await printedOf()).toEqual([true, true]);
    // Another tenant cannot, and bad bodies say what is wrong.
    expect(
      (await fx.t.as(tok.teledoctor!).post('exams/modify-print-status', { storeUids: uids, printed: false }))
        .statusCode,
    ).toBe(404);
    expect((await doctor.post('exams/modify-print-status', { storeUids: [], printed: false })).statusCode).toBe(400);
    expect((await doctor.post('exams/modify-print-status', { storeUids: uids })).statusCode).toBe(400);
    expect((await doctor.post('exams/modify-print-status', { storeUids: uids, printed: false })).json()).toEqual({
      updated: 2,
    });
    expect(await printedOf()).toEqual([false, false]);
  });
});
