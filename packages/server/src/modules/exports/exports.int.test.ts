import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs } from '../../db/schema.js';
import { sheetOf } from '../../test/sheets.js';
import { bucket, fx, id, tok, useExamListFixture } from '../exams/exams.list.fixture.js';

useExamListFixture();

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function exportAs(who: string, body: unknown) {
  return fx.t.app.inject({
    method: 'POST',
    url: '/yyp/api/v1/exports/exams',
    headers: { authorization: `Bearer ${tok[who]}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

describe('POST exports/exams', () => {
  it('exports the filtered list of the organizations with export_exams, masked as the list', async () => {
    const res = await exportAs('senior', {
      filters: [{ field: 'modality', operator: 'in', values: ['CT', 'MR', 'US'] }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="exams-\d{8}\.xlsx"/);
    const rows = await sheetOf(res.rawPayload);
    expect(rows[0]!.slice(0, 3)).toEqual(['姓名', '患者编号', '性别']);
    const names = rows.slice(1).map((r) => r[0]);
    // A, B (RH-RAD) and E (RH-US, where the senior is content manager); F is another group's.
    // Names as people write them: DICOM's component separators do not show.
    expect(names.sort()).toEqual(['DOE JANE', '李四', '王小东'].sort());
    expect(res.headers['x-export-count']).toBe('3');
    const audit = await fx.t.db.database.db.select().from(auditLogs).where(eq(auditLogs.action, 'exam.export'));
    expect(audit.at(-1)).toMatchObject({ outcome: 'success', actorUsername: 'senior' });
    expect(audit.at(-1)!.details).toMatchObject({ count: 3 });
  });

  it('headers follow the language, and only the asked columns come', async () => {
    const res = await exportAs('senior', {
      filters: [{ field: 'patientId', operator: 'eq', values: ['PID-A001'] }],
      columns: ['patientId', 'modality', 'bucketName'],
      language: 'en',
    });
    const rows = await sheetOf(res.rawPayload);
    expect(rows).toEqual([
      ['Patient ID', 'Modality', 'Organization'],
      ['PID-A001', 'CT\\MR', '放射科'],
    ]);
  });

  it('answers only a header row when nothing matches', async () => {
    const res = await exportAs('senior', { filters: [{ field: 'patientId', operator: 'eq', values: ['NOBODY'] }] });
    expect(res.statusCode).toBe(200);
    expect(await sheetOf(res.rawPayload)).toHaveLength(1);
  });

  it('refuses callers without export_exams, and bad filters', async () => {
    const doctor = await exportAs('doctor', {});
    expect(doctor.statusCode).toBe(403);
    expect(doctor.json()).toMatchObject({ code: 'InsufficientPermissions', details: { action: 'export_exams' } });
    const bad = await exportAs('senior', { filters: [{ field: 'modality', operator: 'contains', values: ['C'] }] });
    expect(bad.statusCode).toBe(400);
    const injected = await exportAs('senior', { sorts: [{ field: 'password', direction: 'asc' }] });
    expect(injected.statusCode).toBe(400);
  });

  it('refuses more than 3,000 exams with the count, and builds nothing', async () => {
    const db = fx.t.db.database.db;
    await db.execute(sql`
      insert into exams (id, bucket_id, store_uid, patient_key_id, patient_name, patient_id, patient_gender,
        patient_dob, accession_number, study_date, study_time, study_desc, study_id, modality, body_part,
        institution, referring_physician, specific_character_set, source)
      select 'bulk-' || g, bucket_id, 'bulk.' || g, patient_key_id, 'BULK^' || g, 'BULK-' || g, patient_gender,
        patient_dob, '', '20260101', '', '', '', 'DX', '', '', '', '', 'web'
      from exams, generate_series(1, 2997) g where exams.id = ${id.B}`);
    // 4 (A, B, C, E) + 2997 = 3001 in the senior's export scope: one too many.
    const before = (await db.select().from(auditLogs).where(eq(auditLogs.action, 'exam.export'))).length;
    const res = await exportAs('senior', {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'ExportLimitExceeded', details: { count: 3001, limit: 3000 } });
    expect((await db.select().from(auditLogs).where(eq(auditLogs.action, 'exam.export'))).length).toBe(before);
    // Narrowed to 放射科 (A, B, C and the copies: 3,000), it exports.
    const narrowed = await exportAs('senior', {
      filters: [{ field: 'bucketId', operator: 'eq', values: [bucket['RH-RAD']!] }],
    });
    expect(narrowed.statusCode).toBe(200);
    expect(await sheetOf(narrowed.rawPayload)).toHaveLength(3001);
  });
});
