// Bulk seed for bench/billing: n orders (default 1,000,000) placed by the demo hospital's radiology
// (RH-RAD) with the teleradiology centre (XH-TELE), each on its own exam of the radiology, written
// with generate_series in chunks in the order they were placed (oldest first, over three years):
// 90 % expert reads and 10 % remote reads; the last day's still applied or reporting, 2 % cancelled,
// the rest reported; paid by weixin (80 %) or from the balance, a few unpaid, refunded or partly
// refunded; Chinese and Latin patient names. The tables are vacuumed and analysed afterwards, as a
// working system's would be.
import { names, pgArray } from '../lib/names.mjs';

const CHUNK = 100_000;
const DAYS = 1095;

/** `run(sql, params)` runs on the bench database. Answers the two organizations and the group. */
export async function seedOrders(run, n) {
  const [requester] = await run(`select id, group_id from buckets where code = 'RH-RAD'`);
  const [expert] = await run(`select id from buckets where code = 'XH-TELE'`);
  if (!requester || !expert) throw new Error('the demo organizations RH-RAD and XH-TELE must exist (YYP_DEMO=on)');
  const all = names();
  const params = (from) => [
    requester.id,
    pgArray(all.map((x) => x[0])),
    pgArray(all.map((x) => x[1])),
    all.length,
    from,
    Math.min(n, from + CHUNK) - 1,
    n,
  ];
  // Order g was placed `d` days before 2026-11-16 (oldest first) at a second of that day.
  const placed = `timestamptz '2026-11-16 00:00:00+00' - d * interval '1 day' + ((g * 37) % 86400) * interval '1 second'`;
  const span = (nParam) => `lateral (select (${DAYS - 1} - g::bigint * ${DAYS} / $${nParam})::int as d) dd`;
  const patients = Math.max(100, Math.floor(n / 5));
  for (let from = 0; from < patients; from += CHUNK) {
    await run(
      `insert into patients (id, bucket_id, patient_key, patient_id, name, sex, birth_date)
       select 'bo-p-' || g, $1, 'BO' || lpad(g::text, 8, '0'), 'BO' || lpad(g::text, 8, '0'),
         ($2::text[])[1 + g % $3], case when g % 2 = 0 then 'M' else 'F' end,
         to_char(date '1940-01-01' + (g * 7919) % 30000, 'YYYYMMDD')
       from generate_series($4::int, $5::int) g`,
      [requester.id, pgArray(all.map((x) => x[0])), all.length, from, Math.min(patients, from + CHUNK) - 1],
    );
  }
  for (let from = 0; from < n; from += CHUNK) {
    await run(
      `insert into exams (id, bucket_id, store_uid, patient_key_id, patient_name, patient_name_pinyin, patient_id,
         patient_gender, patient_dob, accession_number, study_date, study_time, study_desc, study_id, modality,
         body_part, institution, referring_physician, specific_character_set, has_image, series_count,
         instance_count, source, created, updated)
       select 'bo-e-' || g, $1, '1.2.826.0.1.3680043.10.544.' || g, 'bo-p-' || g % ${patients},
         ($2::text[])[1 + (g % ${patients}) % $4], ($3::text[])[1 + (g % ${patients}) % $4],
         'BO' || lpad((g % ${patients})::text, 8, '0'),
         case when g % 2 = 0 then 'M' else 'F' end, to_char(date '1940-01-01' + (g::bigint * 7919 % 30000)::int, 'YYYYMMDD'),
         'BOA' || g, to_char(date '2026-11-16' - d, 'YYYYMMDD'), '093000',
         (array['胸部 CT 平扫', '头颅 MR'])[1 + g % 2], '', (array['CT', 'MR'])[1 + g % 2],
         (array['CHEST', 'HEAD'])[1 + g % 2], 'Bench Hospital', '', 'ISO_IR 192', true, 1, 100, 'dimse',
         ${placed}, ${placed}
       from generate_series($5::int, $6::int) g, ${span(7)}`,
      params(from),
    );
  }
  for (let from = 0; from < n; from += CHUNK) {
    await run(
      `insert into orders (id, order_no, type, group_id, request_bucket_id, target_bucket_id, exam_id, product_name,
         price_fen, currency, status, payment_status, channel, paid_fen, refunded_fen, paid_at, patient_name,
         patient_gender, patient_age, reason, deadline_at, reported_at, created, updated)
       select 'bo-' || g, 'R' || to_char(date '2026-11-16' - d, 'YYYYMMDD') || lpad(g::text, 8, '0'),
         case when g % 10 = 0 then 'remote' else 'expert' end, $7, $1, $8, 'bo-e-' || g,
         case when g % 10 = 0 then '远程诊断' else '专家阅片 CT' end, 20000, 'CNY',
         case when g % 50 = 0 then 'cancelled' when d = 0 and g % 2 = 0 then 'applied' when d = 0 then 'reporting'
           else 'reported' end,
         case when g % 50 = 0 or g % 97 = 0 then 0 when g % 301 = 0 then 3 when g % 211 = 0 then 4 else 1 end,
         case when g % 50 = 0 or g % 97 = 0 then null when g % 5 = 0 then 'credit' else 'weixin' end,
         case when g % 50 = 0 or g % 97 = 0 then 0 else 20000 end,
         case when g % 301 = 0 then 20000 when g % 211 = 0 then 5000 else 0 end,
         case when g % 50 = 0 or g % 97 = 0 then null else ${placed} + interval '2 minutes' end,
         ($2::text[])[1 + (g % ${patients}) % $3], case when g % 2 = 0 then 'M' else 'F' end, (20 + g % 70)::text || 'Y',
         '', ${placed} + interval '2 hours', case when d > 0 and g % 50 <> 0 then ${placed} + interval '90 minutes' end,
         ${placed}, ${placed}
       from generate_series($4::int, $5::int) g, ${span(6)}`,
      [
        requester.id,
        pgArray(all.map((x) => x[0])),
        all.length,
        from,
        Math.min(n, from + CHUNK) - 1,
        n,
        requester.group_id,
        expert.id,
      ],
    );
  }
  await run('vacuum (analyze) exams');
  await run('vacuum (analyze) orders');
  return { requestBucketId: requester.id, expertBucketId: expert.id, groupId: requester.group_id };
}

/**
 * `n` more exams of the radiology with no order yet (ids bn-e-0…), for the notification part: each
 * is applied for, given a WeChat QR and paid through the simulator.
 */
export async function seedOpenExams(run, requestBucketId, n) {
  await run(
    `insert into patients (id, bucket_id, patient_key, patient_id, name, sex, birth_date)
     select 'bn-p-' || g, $1, 'BN' || lpad(g::text, 8, '0'), 'BN' || lpad(g::text, 8, '0'), '基准^' || g,
       case when g % 2 = 0 then 'M' else 'F' end, '19700101'
     from generate_series(0, $2::int - 1) g`,
    [requestBucketId, n],
  );
  await run(
    `insert into exams (id, bucket_id, store_uid, patient_key_id, patient_name, patient_name_pinyin, patient_id,
       patient_gender, patient_dob, accession_number, study_date, study_time, study_desc, study_id, modality,
       body_part, institution, referring_physician, specific_character_set, has_image, series_count,
       instance_count, source, created, updated)
     select 'bn-e-' || g, $1, '1.2.826.0.1.3680043.10.545.' || g, 'bn-p-' || g, '基准^' || g, 'jz',
       'BN' || lpad(g::text, 8, '0'), case when g % 2 = 0 then 'M' else 'F' end, '19700101', 'BNA' || g,
       '20261126', '093000', '胸部 CT 平扫', '', 'CT', 'CHEST', 'Bench Hospital', '', 'ISO_IR 192', true, 1, 100,
       'dimse', now(), now()
     from generate_series(0, $2::int - 1) g`,
    [requestBucketId, n],
  );
  return Array.from({ length: n }, (_, g) => `bn-e-${g}`);
}
