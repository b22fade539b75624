// bench/statistics seed, part two (seed.mjs has the head): the front desk, orders, money and
// consultations of the exams seed.mjs wrote, derived from the same exam number g.
//   - devices and rooms: two CTs, an MR and a DR in the radiology, a DR and a CT in the check-up
//     centre; a queue type per modality of the radiology;
//   - every radiology and check-up exam was registered (by the demo registrar or 5 generated ones)
//     60–120 minutes before it was received, arrived 20 minutes after, on its device; the
//     radiology's were also queued and called 15–45 minutes after arriving, in the device's room;
//   - orders: 3 % of the radiology's exams sent to the teleradiology centre (expert reads, a third
//     remote), 4 % of the ultrasound's and check-up's sent to the radiology; paid by WeChat a few
//     minutes after (a ledger payment crediting the expert organization's revenue), every seventh
//     partly refunded, one in seven hundred cancelled unpaid; reported 5–10 hours later;
//   - consultations: one per 100 exams, asked by the radiology, ultrasound or check-up centre of
//     the consultation centre (or of the radiology), a quarter completed and rated.
import { CHUNK, examShape, lit } from './seed.mjs';

const DEVICES = [
  ['bs-dev-ct1', 'BS_CT1', 'rad', 'CT', 'CT一室'],
  ['bs-dev-ct2', 'BS_CT2', 'rad', 'CT', 'CT二室'],
  ['bs-dev-mr1', 'BS_MR1', 'rad', 'MR', 'MR室'],
  ['bs-dev-dx1', 'BS_DX1', 'rad', 'DX', 'DR室'],
  ['bs-dev-pedx', 'BS_PEDX', 'pe', 'DX', '体检DR室'],
  ['bs-dev-pect', 'BS_PECT', 'pe', 'CT', '体检CT室'],
];
const DEVICE_OF = `case when c < 7 then (case m1 when 'CT' then (case when (g / 20) % 2 = 0 then 'bs-dev-ct1' else 'bs-dev-ct2' end)
    when 'MR' then 'bs-dev-mr1' else 'bs-dev-dx1' end)
  else (case m1 when 'CT' then 'bs-dev-pect' else 'bs-dev-pedx' end) end`;

async function devices(run, ctx) {
  for (const [id, ae, org, modality, room] of DEVICES) {
    await run(
      `insert into modalities (id, bucket_id, ae_title, name, modality, room) values ($1, $2, $3, $4, $5, $6)`,
      [id, ctx[org], ae, `基准 ${ae}`, modality, room],
    );
  }
  for (const m of ['CT', 'MR', 'DX']) {
    await run(
      `insert into queue_types (id, bucket_id, display_name, modality, room_name) values ($1, $2, $3, $4, '')`,
      [`bs-qt-${m}`, ctx.rad, `基准 ${m}`, m],
    );
  }
}

async function frontDesk(run, n, ctx, staff) {
  const { lateral } = examShape(n, ctx);
  const registered = `lateral (select at - interval '60 minutes' - (g % 60) * interval '1 minute' as rat) rr`;
  for (let from = 0; from < n; from += CHUNK) {
    const to = Math.min(n, from + CHUNK) - 1;
    await run(
      `insert into registrations (id, group_id, bucket_id, patient_ref, source, pass_code, patient_source,
         outpatient_id, apply_dept, order_placer, created_by, created, updated)
       select 'bs-r-' || g, $1, b, 'bs-rp-' || g % ${ctx.patients}, 'internal', 'BS' || lpad(g::text, 10, '0'), 'O',
         'MZ' || g, '内科', '李医生', ($2::text[])[1 + g % $3], rat, rat
       from generate_series($4::int, $5::int) g, ${lateral}, ${registered}
       where c not in (7, 8)`,
      [ctx.groupId, `{${staff.registrars.join(',')}}`, staff.registrars.length, from, to],
    );
    await run(
      `insert into scheduled_exams (id, registration_id, bucket_id, status, procedure_name, procedure_code, modality,
         body_part, study_desc, device_id, station_ae_title, scheduled_date, scheduled_time, accession_number,
         study_instance_uid, requested_procedure_id, sps_id, exam_id, arrived_at, arrived_by, performed_at,
         created, updated)
       select 'bs-s-' || g, 'bs-r-' || g, b, 'Performed', m1 || ' ' || part, m1 || '-' || part, m1, part,
         m1 || ' ' || part, dv.id, dv.ae_title, to_char(date '2025-11-01' + d, 'YYYY-MM-DD'), '09:00',
         'BSA' || g, '1.2.826.0.1.3680043.10.547.' || g, 'RP' || g, 'SPS' || g, 'bs-e-' || g,
         rat + interval '20 minutes', case when g % 4 = 0 then $1 else ($2::text[])[1 + g % $3] end, at, rat, at
       from generate_series($4::int, $5::int) g, ${lateral}, ${registered}, modalities dv
       where c not in (7, 8) and dv.id = ${DEVICE_OF}`,
      [staff.tech, `{${staff.registrars.join(',')}}`, staff.registrars.length, from, to],
    );
    await run(
      `insert into queue_exams (id, bucket_id, queue_type_id, scheduled_exam_id, check_in_date, queue_no, status,
         room, called_at, called_count, called_by, checked_in_at, finished_at, updated)
       select 'bs-q-' || g, b, 'bs-qt-' || m1, 'bs-s-' || g, to_char(date '2025-11-01' + d, 'YYYY-MM-DD'), g, 'done',
         dv.room, rat + interval '35 minutes' + (g % 30) * interval '1 minute', 1, $1, rat + interval '20 minutes', at, at
       from generate_series($2::int, $3::int) g, ${lateral}, ${registered}, modalities dv
       where c < 7 and dv.id = ${DEVICE_OF}`,
      [staff.tech, from, to],
    );
  }
}

async function orders(run, n, ctx) {
  const { lateral } = examShape(n, ctx);
  const sent = `g % 100 in (11, 21, 31)`;
  for (let from = 0; from < n; from += CHUNK) {
    const to = Math.min(n, from + CHUNK) - 1;
    await run(
      `insert into orders (id, order_no, type, group_id, request_bucket_id, target_bucket_id, exam_id, product_name,
         price_fen, currency, status, payment_status, channel, paid_fen, refunded_fen, paid_at, patient_name,
         patient_gender, patient_age, reason, deadline_at, reported_at, created, updated)
       select 'bs-o-' || g, 'BS' || lpad(g::text, 12, '0'), case when g % 100 = 31 then 'remote' else 'expert' end,
         ${lit(ctx.groupId)}, b, case when ${sent} then ${lit(ctx.tele)} else ${lit(ctx.rad)} end, 'bs-e-' || g,
         case when g % 100 = 31 then '远程诊断' else '专家阅片 ' || m1 end, price, 'CNY', st,
         case when st = 'cancelled' then 0 when g % 7 = 0 then 4 else 1 end,
         case when st <> 'cancelled' then 'weixin' end,
         case when st <> 'cancelled' then price else 0 end,
         case when st <> 'cancelled' and g % 7 = 0 then 5000 else 0 end,
         case when st <> 'cancelled' then at + interval '10 minutes' end,
         '基准患者', case when g % 2 = 0 then 'M' else 'F' end, (20 + g % 70)::text || 'Y', '',
         at + interval '1 day',
         case when st = 'reported' then at + interval '5 hours' + (g % 300) * interval '1 minute' end,
         at + interval '5 minutes', at + interval '5 minutes'
       from generate_series($1::int, $2::int) g, ${lateral},
         lateral (select case when ${sent} then 20000 else 15000 end as price,
           case when g % 700 = 11 then 'cancelled' when d = 364 then 'reporting' else 'reported' end as st) o
       where ${sent} or g % 50 in (17, 19)`,
      [from, to],
    );
  }
  await run(
    `insert into payments (id, payment_no, purpose, order_id, group_id, bucket_id, channel, amount_fen, currency,
       status, transaction_id, paid_at, refunded_fen, created, updated)
     select 'bs-pay-' || substr(o.id, 6), 'BSP' || substr(o.id, 6), 'order', o.id, o.group_id, o.request_bucket_id,
       'weixin', o.price_fen, 'CNY', 'paid', 'WX' || substr(o.id, 6), o.paid_at, o.refunded_fen, o.paid_at, o.paid_at
     from orders o where o.id like 'bs-o-%' and o.payment_status <> 0`,
  );
  await run(
    `insert into ledger_txns (id, kind, ref, group_id, order_id, created)
     select 'bs-lt-' || p.payment_no, 'payment', p.payment_no, p.group_id, p.order_id, p.paid_at
     from payments p where p.id like 'bs-pay-%'
     union all
     select 'bs-lr-' || p.payment_no, 'refund', 'BSR' || substr(p.id, 8), p.group_id, p.order_id, p.paid_at + interval '1 day'
     from payments p where p.id like 'bs-pay-%' and p.refunded_fen > 0`,
  );
  await run(
    `insert into ledger_entries (id, txn_id, account, amount_fen, currency, created)
     select t.id || ':' || side, t.id, case side when 1 then 'revenue:' || o.target_bucket_id else 'cash:weixin' end,
       case when t.kind = 'payment' then -1 else 1 end * case side when 1 then 1 else -1 end
         * case when t.kind = 'payment' then o.price_fen else o.refunded_fen end,
       'CNY', t.created
     from ledger_txns t join orders o on o.id = t.order_id, generate_series(1, 2) side
     where t.id like 'bs-l%'`,
  );
}

async function consultations(run, n, ctx, staff) {
  const count = Math.max(10, Math.floor(n / 100));
  const at = `(date '2025-11-01' + (g::bigint * 365 / ${count})::int + time '09:00' + (g % 480) * interval '1 minute') at time zone 'Asia/Shanghai'`;
  await run(
    `insert into consultations (id, group_id, source_bucket_id, target_bucket_id, title, status, scheduled_at,
       patient_name, patient_gender, result_at, rating_score, rated_by, rated_at, creator_id, created, updated)
     select 'bs-c-' || g, $1, src, case when g % 2 = 0 or src = $4 then $5 else $4 end, '基准会诊 ' || g, g % 4,
       at + interval '1 day', '基准患者', 'M', case when g % 4 = 2 then at + interval '2 days' end,
       case when g % 4 = 2 then 3 + g % 3 end, case when g % 4 = 2 then $6 end,
       case when g % 4 = 2 then at + interval '3 days' end, $6, at, at
     from generate_series(0, $7::int - 1) g,
       lateral (select ${at} as at, (array[$2, $3, $4])[1 + g % 3] as src) v`,
    [ctx.groupId, ctx.us, ctx.pe, ctx.rad, ctx.consult, staff.doctor, count],
  );
}

/** Seeds the front desk, orders, money and consultations; `timed(name, fn)` records each part. */
export async function seedDesk(run, n, ctx, staff, timed) {
  await timed('frontDesk', async () => {
    await devices(run, ctx);
    await frontDesk(run, n, ctx, staff);
  });
  await timed('ordersMoney', () => orders(run, n, ctx));
  await timed('consultations', () => consultations(run, n, ctx, staff));
}
