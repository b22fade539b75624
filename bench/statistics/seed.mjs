// Bulk seed for bench/statistics: n exams (default 1,000,000) over one year of hospital days
// (FIRST_DAY to FIRST_DAY + 364, oldest first) in the demo hospital's three organizations (RH-RAD
// 70 %, RH-US 20 %, RH-PE 10 %), written with generate_series in chunks. Exam g's day, time,
// organization, modality (CT, MR, DX in the radiology, 1 % of them CT\SR; US; DX, CT in the
// check-up centre), body part and body-part count follow from g. 98 % of the exams have a report:
// written by the demo doctor or one of 30 generated doctors, approved by the senior doctor or one of
// 8 generated seniors (4 % left submitted), every fifth typed by the note-taker, 30 % positive;
// every tenth approved report graded. The front desk, orders, money and consultations are in
// seed-desk.mjs. Row triggers that keep the statistics' rollups and exam_steps are off while
// rows are written (seedWithoutStepTriggers); the steps are then filled in one statement each and
// every (organization, day) is marked dirty, so the server's first read recounts the rollups (the
// bench measures that "cold first read" on its own). The statement triggers of the lists' counts
// stay on.
import { names, pgArray } from '../lib/names.mjs';
import { seedDesk } from './seed-desk.mjs';

export const CHUNK = 100_000;
/** The year the exams fall in (hospital days, both included). */
export const FIRST_DAY = '2025-11-01';
export const LAST_DAY = '2026-10-31';
const DAYS = 365;
export const WRITERS = 30;
export const SENIORS = 8;
export const REGISTRARS = 6;

/** Row triggers (migrations 0043, 0045, 0048, 0054, 0056) disabled during the bulk writes. */
const ROW_TRIGGERS = [
  ['exams', 'exams_stat_insert'],
  ['exams', 'exams_steps_insert'],
  ['reports', 'reports_stat_insert'],
  ['reports', 'reports_steps_insert'],
  ['scheduled_exams', 'scheduled_exams_steps_insert'],
  ['registrations', 'registrations_stat_insert'],
  ['scheduled_exams', 'scheduled_exams_stat_insert'],
  ['queue_exams', 'queue_exams_steps_insert'],
  ['orders', 'orders_steps_insert'],
  ['orders', 'orders_stat_insert'],
  ['consultations', 'consultations_stat_insert'],
];

/** The tables the seed fills in bulk: their indexes (but those of constraints) are dropped while it writes. */
const BULK_TABLES = [
  'exams',
  'reports',
  'report_quality',
  'patients',
  'registry_patients',
  'registrations',
  'scheduled_exams',
  'queue_exams',
  'orders',
  'ledger_txns',
  'ledger_entries',
  'payments',
  'exam_steps',
];

/**
 * Drops the bulk tables' indexes that back no constraint (primary keys and unique constraints stay,
 * for the foreign keys and joins by id) and answers how to build them again: at 10,000,000 exams
 * keeping a dozen indexes per table up to date row by row, beyond the cache, made the writes about
 * thirty times slower than at 1,000,000; one sorted build per index after the writes does not.
 */
async function dropIndexes(run) {
  const indexes = await run(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
     from pg_index i join pg_class t on t.oid = i.indrelid join pg_namespace ns on ns.oid = t.relnamespace
     where ns.nspname = 'public' and t.relname = any($1::text[])
       and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
     order by 1`,
    [pgArray(BULK_TABLES)],
  );
  for (const i of indexes) await run(`drop index ${i.name}`);
  return async () => {
    await run(`set maintenance_work_mem = '1GB'`);
    for (const i of indexes) await run(i.def);
    await run('reset maintenance_work_mem');
  };
}

/** A text literal (the values come from the bench database: ids and codes). */
export const lit = (s) => `'${String(s).replace(/'/g, "''")}'`;

/** The organization of exam (or patient) g by its class g % 10. */
export const bucketOf = (ctx) =>
  `case when g % 10 < 7 then ${lit(ctx.rad)} when g % 10 < 9 then ${lit(ctx.us)} else ${lit(ctx.pe)} end`;

/**
 * The expressions every table derives from exam g (the columns of the lateral `v`): its day
 * offset d, its hospital day, the instant it was received (at), its organization (b) and its
 * class c = g % 10 (0–6 radiology, 7–8 ultrasound, 9 check-up).
 */
export function examShape(n, ctx) {
  const d = `(g::bigint * ${DAYS} / ${n})::int`;
  const at = `(date '${FIRST_DAY}' + ${d} + time '07:00' + ((g * 37) % 43200) * interval '1 second') at time zone 'Asia/Shanghai'`;
  const b = bucketOf(ctx);
  const m1 = `case when g % 10 < 7 then (array['CT', 'CT', 'MR', 'DX'])[1 + (g / 10) % 4]
    when g % 10 < 9 then 'US' else (array['DX', 'CT'])[1 + (g / 10) % 2] end`;
  return {
    lateral: `lateral (select ${d} as d, ${at} as at, ${b} as b, ${m1} as m1, g % 10 as c,
      (array['CHEST', 'HEAD', 'ABDOMEN', 'LSPINE', 'KNEE'])[1 + (g / 7) % 5] as part) v`,
  };
}

async function people(run) {
  await run(
    `insert into accounts (id, username, name, created_at, updated_at)
     select 'bench-' || k || '-' || lpad(i::text, 2, '0'), 'bench_' || k || '_' || lpad(i::text, 2, '0'),
       case k when 'dr' then '医生' when 'sr' then '主任' else '登记' end || lpad(i::text, 2, '0'), now(), now()
     from (values ('dr', ${WRITERS}), ('sr', ${SENIORS}), ('rg', ${REGISTRARS})) t(k, cnt), generate_series(1, cnt) i`,
  );
  const ids = Object.fromEntries(
    (
      await run(
        `select username, id from accounts where username in ('doctor', 'senior', 'notetaker', 'registrar', 'tech')`,
      )
    ).map((r) => [r.username, r.id]),
  );
  const gen = (k, cnt) => Array.from({ length: cnt }, (_, i) => `bench-${k}-${String(i + 1).padStart(2, '0')}`);
  return {
    ...ids,
    writers: [ids.doctor, ...gen('dr', WRITERS)],
    seniors: [ids.senior, ...gen('sr', SENIORS)],
    registrars: [ids.registrar, ...gen('rg', REGISTRARS - 1)],
  };
}

async function patients(run, ctx, count) {
  const all = names();
  for (let from = 0; from < count; from += CHUNK) {
    const to = Math.min(count, from + CHUNK) - 1;
    await run(
      `insert into patients (id, bucket_id, patient_key, patient_id, name, sex, birth_date)
       select 'bs-p-' || g, ${bucketOf(ctx)}, 'BS' || lpad(g::text, 9, '0'), 'BS' || lpad(g::text, 9, '0'),
         ($1::text[])[1 + g % $2], case when g % 2 = 0 then 'M' else 'F' end,
         to_char(date '1940-01-01' + (g::bigint * 7919 % 30000)::int, 'YYYYMMDD')
       from generate_series($3::int, $4::int) g`,
      [pgArray(all.map((x) => x[0])), all.length, from, to],
    );
    await run(
      `insert into registry_patients (id, group_id, patient_id, name, name_pinyin, gender, birth_date, created, updated)
       select 'bs-rp-' || g, $5, 'BS' || lpad(g::text, 9, '0'), ($1::text[])[1 + g % $3], ($2::text[])[1 + g % $3],
         case when g % 2 = 0 then 'M' else 'F' end, to_char(date '1940-01-01' + (g::bigint * 7919 % 30000)::int, 'YYYYMMDD'),
         timestamptz '2025-01-01 00:00:00+08', timestamptz '2025-01-01 00:00:00+08'
       from generate_series($4::int, $6::int) g`,
      [pgArray(all.map((x) => x[0])), pgArray(all.map((x) => x[1])), all.length, from, ctx.groupId, to],
    );
  }
}

async function examsAndReports(run, n, ctx, staff) {
  const all = names();
  const { lateral } = examShape(n, ctx);
  const P = ctx.patients;
  for (let from = 0; from < n; from += CHUNK) {
    const to = Math.min(n, from + CHUNK) - 1;
    await run(
      `insert into exams (id, bucket_id, store_uid, patient_key_id, patient_name, patient_name_pinyin, patient_id,
         patient_gender, patient_dob, accession_number, study_date, study_time, study_desc, study_id, modality,
         body_part, body_part_count, institution, referring_physician, specific_character_set, has_image,
         series_count, instance_count, source, report_status, deleted_time, created, updated)
       select 'bs-e-' || g, b, '1.2.826.0.1.3680043.10.546.' || g, 'bs-p-' || g % ${P},
         ($1::text[])[1 + (g % ${P}) % $3], ($2::text[])[1 + (g % ${P}) % $3], 'BS' || lpad((g % ${P})::text, 9, '0'),
         case when g % 2 = 0 then 'M' else 'F' end, '19700101', 'BSA' || g,
         to_char(date '${FIRST_DAY}' + d, 'YYYYMMDD'), '093000', m1 || ' ' || part, '',
         m1 || case when g % 97 = 0 and m1 = 'CT' then '\\SR' else '' end, part,
         case when g % 3 = 0 then null else 1 + g % 2 end, 'Bench Hospital', '', 'ISO_IR 192', true, 2, 200, 'dimse',
         case when g % 50 = 3 then 'none' when g % 25 = 4 then 'submitted' else 'approved' end,
         case when g % 500 = 1 then at + interval '1 day' end, at, at
       from generate_series($4::int, $5::int) g, ${lateral}`,
      [pgArray(all.map((x) => x[0])), pgArray(all.map((x) => x[1])), all.length, from, to],
    );
    const approved = `at + interval '150 minutes' + ((g * 13) % 600) * interval '1 minute'`;
    await run(
      `insert into reports (id, bucket_id, status, version, content, creator_id, last_updater_id, approver_id,
         note_taker_id, saved_at, submitted_at, approved_at, print_approved_at, created_at, updated_at)
       select 'bs-e-' || g, b, st, 3,
         jsonb_build_object('findings', '所见 ' || part, 'conclusion', '结论', 'note', '', 'advice', '',
           'extensions', '{}'::jsonb,
           'positive', case when g % 11 = 5 then null else g % 10 < 3 end,
           'bodyPartCount', case when g % 13 = 0 then 2 end),
         ($1::text[])[1 + (g / 3) % $2], ($1::text[])[1 + (g / 3) % $2],
         case when st <> 'submitted' then ($3::text[])[1 + (g / 7) % $4] end,
         case when g % 5 = 0 then $5 end,
         at + interval '60 minutes', at + interval '120 minutes',
         case when st <> 'submitted' then ${approved} end,
         case when st = 'printed' then ${approved} + interval '20 minutes' end,
         at + interval '30 minutes', at + interval '200 minutes'
       from generate_series($6::int, $7::int) g, ${lateral},
         lateral (select case when g % 25 = 4 then 'submitted' when g % 3 = 0 then 'printed' else 'corrected' end as st) s
       where g % 50 <> 3`,
      [
        pgArray(staff.writers),
        staff.writers.length,
        pgArray(staff.seniors),
        staff.seniors.length,
        staff.notetaker,
        from,
        to,
      ],
    );
    // Every tenth approved report graded (radiology and ultrasound) a day after its approval.
    await run(
      `insert into report_quality (report_id, bucket_id, level, suggestion, unsatisfactory_items, creator_id, created_at, updated_at)
       select r.id, r.bucket_id, (array['A', 'A', 'A', 'B', 'B', 'C', 'D'])[1 + (g / 20) % 7], '',
         case when (g / 20) % 7 >= 5 then '["描述不完整", "诊断依据不足"]'::jsonb
           when (g / 20) % 7 = 4 then '["格式不规范"]'::jsonb else '[]'::jsonb end,
         $1, r.approved_at + interval '1 day', r.approved_at + interval '1 day'
       from generate_series($2::int, $3::int) g join reports r on r.id = 'bs-e-' || g
       where g % 20 in (6, 17) and r.approved_at is not null`,
      [staff.senior, from, to],
    );
  }
}

/**
 * Seeds everything; `run(sql, params)` runs on the bench database. Answers the group, its
 * organizations and what each part took (seconds).
 */
export async function seedStatistics(run, n) {
  const buckets = await run(
    `select id, code, group_id from buckets where code in ('RH-RAD', 'RH-US', 'RH-PE', 'XH-TELE', 'XH-CONSULT')`,
  );
  const code = (c) => buckets.find((b) => b.code === c)?.id;
  if (buckets.length !== 5) throw new Error('the demo organizations must exist (YYP_DEMO=on)');
  const ctx = {
    rad: code('RH-RAD'),
    us: code('RH-US'),
    pe: code('RH-PE'),
    tele: code('XH-TELE'),
    consult: code('XH-CONSULT'),
    groupId: buckets.find((b) => b.code === 'RH-RAD').group_id,
    teleGroupId: buckets.find((b) => b.code === 'XH-TELE').group_id,
    patients: Math.max(100, Math.floor(n / 50) * 10),
  };
  const parts = {};
  const timed = async (name, fn) => {
    const t0 = Date.now();
    await fn();
    parts[name] = Math.round((Date.now() - t0) / 100) / 10;
    console.log(`seed: ${name} ${parts[name]} s`);
  };
  for (const [table, trigger] of ROW_TRIGGERS) await run(`alter table ${table} disable trigger ${trigger}`);
  const rebuildIndexes = await dropIndexes(run);
  let staff;
  await timed('people', async () => {
    staff = await people(run);
    await patients(run, ctx, ctx.patients);
  });
  await timed('examsReportsQuality', () => examsAndReports(run, n, ctx, staff));
  await seedDesk(run, n, ctx, staff, timed);
  for (const [table, trigger] of ROW_TRIGGERS) await run(`alter table ${table} enable trigger ${trigger}`);
  // Without their indexes the planner needs the new rows' statistics (else it plans for empty
  // tables: nested loops over a million rows).
  await timed('analyze', () => run(`analyze ${BULK_TABLES.join(', ')}`));
  await timed('examSteps', () => fillExamSteps(run));
  // What migrations 0043 and 0048 do for existing rows: every (organization, day) counted at the first read.
  await timed('statMarks', () =>
    run(`insert into stat_dirty (bucket_id, day)
      select bucket_id, stat_day(created) from exams where id like 'bs-e-%'
      union select bucket_id, stat_day(approved_at) from reports where approved_at is not null and id like 'bs-e-%'
      union select bucket_id, stat_day(created) from registrations where id like 'bs-r-%'
      union select bucket_id, stat_day(arrived_at) from scheduled_exams where arrived_at is not null and id like 'bs-s-%'
      union select request_bucket_id, stat_day(created) from orders where id like 'bs-o-%'
      union select target_bucket_id, stat_day(created) from orders where id like 'bs-o-%'
      union select source_bucket_id, stat_day(created) from consultations
      union select target_bucket_id, stat_day(created) from consultations
      on conflict do nothing`),
  );
  await timed('indexes', rebuildIndexes);
  await timed('vacuumAnalyze', () => run('vacuum (analyze)'));
  return { ...ctx, staff, parts };
}

/**
 * The exam_steps rows exam_steps_put (migration 0045) would write, set-based: one per scheduled
 * exam (with the exam it links), one per exam no scheduled exam links.
 */
async function fillExamSteps(run) {
  const cols = `id, scheduled_exam_id, exam_id, bucket_id, modality, room, doctor_id, live, registered_at, arrived_at,
    called_at, performed_at, first_saved_at, submitted_at, approved_at, printed_at, published_at, share_viewed_at`;
  const tail = `left join reports r on r.id = x.id
    left join (select exam_id, min(reported_at) as reported_at from orders
      where status <> 'cancelled' and type <> 'consultation' and exam_id like 'bs-e-%' group by exam_id) o on o.exam_id = x.id
    left join (select report_id, min(first_viewed_at) as viewed_at from report_share_links group by report_id) l on l.report_id = x.id`;
  await run(`insert into exam_steps (${cols})
    select s.id, s.id, x.id, s.bucket_id, coalesce(nullif(split_part(x.modality, '\\', 1), ''), s.modality, ''),
      coalesce(nullif(dv.room, ''), q.room, ''), r.creator_id,
      coalesce(s.status, '') <> 'Cancelled' and x.deleted_time is null,
      s.created, s.arrived_at, q.called_at, coalesce(s.performed_at, x.created),
      r.first_saved_at, r.submitted_at, r.approved_at, r.print_approved_at, o.reported_at, l.viewed_at
    from scheduled_exams s
    left join exams x on x.id = s.exam_id
    left join modalities dv on dv.id = s.device_id
    left join (select scheduled_exam_id, min(called_at) as called_at, max(room) filter (where room <> '') as room
      from queue_exams where status <> 'moved' group by scheduled_exam_id) q on q.scheduled_exam_id = s.id
    ${tail}
    where s.id like 'bs-s-%'`);
  await run(`insert into exam_steps (${cols})
    select x.id, null, x.id, x.bucket_id, coalesce(nullif(split_part(x.modality, '\\', 1), ''), ''), '', r.creator_id,
      x.deleted_time is null, null, null, null, x.created,
      r.first_saved_at, r.submitted_at, r.approved_at, r.print_approved_at, o.reported_at, l.viewed_at
    from exams x
    ${tail}
    where x.id like 'bs-e-%' and not exists (select 1 from scheduled_exams s where s.exam_id = x.id)`);
}
