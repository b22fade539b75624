import { and, count, isNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bucketExamCounts, examNamePrefixCounts, exams } from '../../db/schema.js';
import { bucket, fx, id, ingest, page, tok, useExamListFixture } from './exams.list.fixture.js';

useExamListFixture();

/** The trigger-kept counters must equal a real count of live exams in every organization. */
async function expectCountersTrue(): Promise<void> {
  const db = fx.t.db.database.db;
  const real = await db
    .select({ b: exams.bucketId, n: count() })
    .from(exams)
    .where(isNull(exams.deletedTime))
    .groupBy(exams.bucketId);
  const kept = await db.select().from(bucketExamCounts);
  const live = new Map(kept.map((k) => [k.bucketId, Number(k.live)]));
  for (const r of real) expect(live.get(r.b), r.b).toBe(Number(r.n));
  for (const [b, n] of live) if (!real.some((r) => r.b === b)) expect(n, b).toBe(0);
  await expectPrefixCountersTrue();
}

/**
 * The short-prefix counters must equal the live exams of each organization whose name key (lower
 * case, without ^ and spaces) or pinyin initials begin with each prefix of one or two characters.
 */
async function expectPrefixCountersTrue(): Promise<void> {
  const db = fx.t.db.database.db;
  const rows = await db
    .select({ b: exams.bucketId, name: exams.patientName, initials: exams.patientNamePinyin })
    .from(exams)
    .where(isNull(exams.deletedTime));
  const real = new Map<string, number>();
  for (const r of rows) {
    const key = [...r.name.replace(/[\^ ]/g, '').toLowerCase()];
    const initials = [...(r.initials ?? '')];
    const prefixes = new Set(
      [key.slice(0, 1), key.slice(0, 2), initials.slice(0, 1), initials.slice(0, 2)].map((p) => p.join('')),
    );
    for (const p of prefixes) if (p !== '') real.set(`${r.b} ${p}`, (real.get(`${r.b} ${p}`) ?? 0) + 1);
  }
  const kept = new Map(
    (await db.select().from(examNamePrefixCounts)).map((k) => [`${k.bucketId} ${k.prefix}`, Number(k.live)]),
  );
  for (const [k, n] of real) expect(kept.get(k), k).toBe(n);
  for (const [k, n] of kept) if (!real.has(k)) expect(n, k).toBe(0);
}

describe('live exam counters', () => {
  it('follow ingest, re-sends, delete, recovery, removal and bulk writes', async () => {
    await expectCountersTrue();
    const before = (await page('senior', {})).count;
    const fresh = await ingest(bucket['RH-RAD'] ?? '', { modality: 'CT', patientId: 'CNT-1' });
    await expectCountersTrue();
    expect((await page('senior', {})).count).toBe(before + 1);

    expect((await fx.t.as(tok.senior!).post(`exams/${id.E}`, { urgentFlag: true })).statusCode).toBe(200);
    expect((await fx.t.as(tok.senior!).del(`exams/${id.E}/delete`)).statusCode).toBe(200);
    await expectCountersTrue();
    expect((await page('senior', {})).count).toBe(before);
    expect((await fx.t.as(tok.senior!).post(`reports/${id.E}/recovery`)).statusCode).toBe(200);
    await expectCountersTrue();
    expect((await fx.t.as(tok.senior!).del(`exams/${id.E}/delete`)).statusCode).toBe(200);
    expect((await fx.t.as(tok.senior!).post(`reports/${id.E}/delete`)).statusCode).toBe(204);
    await expectCountersTrue();

    // A bulk insert and a bulk soft delete in single statements.
    const db = fx.t.db.database.db;
    await db.execute(sql`
      insert into exams (id, bucket_id, store_uid, patient_key_id, patient_name, patient_id, patient_gender,
        patient_dob, accession_number, study_date, study_time, study_desc, study_id, modality, body_part,
        institution, referring_physician, specific_character_set, source)
      select 'cnt-' || g, bucket_id, 'cnt.' || g, patient_key_id, 'X', 'X', 'M', '', '', '', '', '', '', 'CT', '',
        '', '', '', 'web'
      from exams, generate_series(1, 25) g where exams.id = ${fresh}`);
    await expectCountersTrue();
    await db.execute(sql`update exams set deleted_time = now() where id like 'cnt-1%'`);
    await expectCountersTrue();
    // Moves between organizations, live and deleted, and updates that change neither column.
    await db.execute(sql`update exams set bucket_id = ${bucket['RH-US']} where id like 'cnt-2%'`);
    await expectCountersTrue();
    await db.execute(sql`update exams set bucket_id = ${bucket['RH-US']}, deleted_time = null where id like 'cnt-1%'`);
    await expectCountersTrue();
    await db.execute(
      sql`update exams set deleted_time = deleted_time, bucket_id = bucket_id, updated = now() where id like 'cnt-%'`,
    );
    await expectCountersTrue();
    // Renames, new initials, and a rename of a deleted exam.
    await db.execute(
      sql`update exams set patient_name = '王^小东', patient_name_pinyin = 'wxd' where id like 'cnt-1%'`,
    );
    await expectCountersTrue();
    await db.execute(sql`update exams set patient_name = 'Wu^Ming', patient_name_pinyin = null where id like 'cnt-2%'`);
    await expectCountersTrue();
    await db.execute(sql`update exams set deleted_time = now() where id like 'cnt-2%'`);
    await db.execute(sql`update exams set patient_name = 'Li^Hua' where id like 'cnt-2%'`);
    await expectCountersTrue();
    await db.delete(exams).where(sql`${exams.id} like 'cnt-%'`);
    await expectCountersTrue();
  });

  it('count a search of one or two characters as the rows it lists', async () => {
    const db = fx.t.db.database.db;
    // Copies of an exam of an organization the senior doctor sees.
    const fresh = { id: await ingest(bucket['RH-RAD'] ?? '', { modality: 'CT', patientId: 'PFX-1' }) };
    await db.execute(sql`
      insert into exams (id, bucket_id, store_uid, patient_key_id, patient_name, patient_name_pinyin, patient_id,
        patient_gender, patient_dob, accession_number, study_date, study_time, study_desc, study_id, modality,
        body_part, institution, referring_physician, specific_character_set, source)
      select 'pfx-' || g, bucket_id, 'pfx.' || g, patient_key_id,
        (array['王^小东', 'Wang^Xiao', '汪^伟', 'WX^Y', '张^伟'])[g % 5 + 1],
        (array['wxd', '', 'ww', '', 'zw'])[g % 5 + 1], 'P', 'M', '', '', '', '', '', '', 'CT', '', '', '', '', 'web'
      from exams, generate_series(1, 40) g where exams.id = ${fresh.id}`);
    await expectCountersTrue();
    for (const typed of ['w', 'wx', 'W X', '王', '王小', '汪', 'z', 'zw', 'x', 'q']) {
      const found = await page('senior', {
        filters: [{ field: 'patientName', operator: 'prefix', values: [typed] }],
        limit: 200,
      });
      expect(found.count, typed).toBe(found.exams.length);
    }
    const w = await page('senior', {
      filters: [{ field: 'patientName', operator: 'prefix', values: ['w'] }],
      limit: 200,
    });
    expect(w.count).toBeGreaterThanOrEqual(32); // 王, Wang, 汪 and WX of the 40
    await db.delete(exams).where(sql`${exams.id} like 'pfx-%'`);
    await expectCountersTrue();
  });

  it('give the unfiltered count and the per-organization count exactly', async () => {
    const all = await page('senior', {});
    const real = await fx.t.db.database.db
      .select({ n: count() })
      .from(exams)
      .where(and(isNull(exams.deletedTime), sql`${exams.bucketId} in (${bucket['RH-RAD']}, ${bucket['RH-US']})`));
    expect(all.count).toBe(Number(real[0]!.n));
    const rad = await page('senior', { filters: [{ field: 'bucketId', operator: 'eq', values: [bucket['RH-RAD']] }] });
    expect(rad.count).toBe(rad.exams.length);
    // An organization the caller does not see adds nothing, even when asked for.
    const tele = await page('senior', {
      filters: [{ field: 'bucketId', operator: 'in', values: [bucket['XH-TELE']] }],
    });
    expect(tele).toEqual({ exams: [], count: 0 });
  });
});
