// Bulk seed of scheduled exams for bench/mwl and bench/registry: n scheduled exams (default
// 1,000,000) in the first demo organization (the one DEMO_MODALITY stores into), each with its own
// registration (95 % internal, 5 % external) and one of n / 5 registry patients of the group
// (Chinese names with their pinyin initials, and a few Latin ones), written with generate_series
// in chunks in the order a desk creates them (oldest day first). Dates: `today` (the hospital's
// day) holds `todayCount` (default 10,000) exams, Scheduled or Arrived (what a worklist answers);
// the rest lie over the 990 days before (Performed, 5 % Cancelled) and the 9 days after (Scheduled).
// Every exam is on one of `stations` devices of the organization (the station AE title the
// worklist hands it to): station 0 is DEMO_MODALITY (CT), the others BENCH_ST01… are added here
// (CT, MR, DX, US, CR, MG), so a day's exams are shared among the department's modalities.
import { names, pgArray } from '../lib/names.mjs';

/** The stations' modalities: station 0 is the demo CT (DEMO_MODALITY). */
const STATION_MODALITIES = ['CT', 'CT', 'MR', 'MR', 'DX', 'DX', 'US', 'US', 'CR', 'MG'];
const PROCEDURES = {
  CT: ['胸部 CT 平扫', 'CT-CHEST'],
  MR: ['头颅 MR 平扫', 'MR-HEAD'],
  DX: ['胸部正位', 'DX-CHEST'],
  US: ['腹部超声', 'US-ABD'],
  CR: ['腰椎正侧位', 'CR-LSPINE'],
  MG: ['乳腺钼靶', 'MG-BREAST'],
};

const CHUNK = 100_000;
export const DEMO_AE = 'DEMO_MODALITY';

/** The station AE titles and modalities, station 0 the demo CT. */
export function stationsOf(count) {
  return Array.from({ length: count }, (_, i) => ({
    aeTitle: i === 0 ? DEMO_AE : `BENCH_ST${String(i).padStart(2, '0')}`,
    modality: STATION_MODALITIES[i % STATION_MODALITIES.length],
  }));
}

/**
 * Seeds the scheduled exams (see the file's head). `run(sql, params)` runs on the bench database;
 * `today` is YYYY-MM-DD. Answers the organization, group and station list.
 */
export async function seedScheduledExams(run, { n, todayCount, stations: stationCount, today }) {
  const [device] = await run(`select bucket_id from modalities where ae_title = $1`, [DEMO_AE]);
  if (!device) throw new Error('the demo modality must exist (start the server with YYP_DEMO=on first)');
  const bucketId = device.bucket_id;
  const [{ group_id: groupId }] = await run(`select group_id from buckets where id = $1`, [bucketId]);
  const stations = stationsOf(stationCount);
  await run(
    `insert into modalities (id, bucket_id, ae_title, name, modality, room, charset)
     select 'bench-dev-' || s.ae, $1, s.ae, '基准 ' || s.m || ' ' || right(s.ae, 2), s.m, '', 'GB18030'
     from unnest($2::text[], $3::text[]) s(ae, m) where s.ae <> $4`,
    [bucketId, pgArray(stations.map((s) => s.aeTitle)), pgArray(stations.map((s) => s.modality)), DEMO_AE],
  );
  const devices = await run(`select id, ae_title from modalities where bucket_id = $1`, [bucketId]);
  const deviceOf = new Map(devices.map((d) => [d.ae_title, d.id]));
  const all = names();
  const patients = Math.max(100, Math.floor(n / 5));
  for (let from = 0; from < patients; from += CHUNK) {
    await run(
      `insert into registry_patients (id, group_id, patient_id, name, name_pinyin, gender, birth_date, phone, created, updated)
       select 'bp-' || g, $1, 'BP' || lpad(g::text, 8, '0'), ($2::text[])[1 + g % $4], ($3::text[])[1 + g % $4],
         case when g % 2 = 0 then 'M' else 'F' end, to_char(date '1940-01-01' + (g * 7919) % 30000, 'YYYYMMDD'),
         '139' || lpad(g::text, 8, '0'), timestamptz '2024-01-01 00:00:00+08', timestamptz '2024-01-01 00:00:00+08'
       from generate_series($5::int, $6::int) g`,
      [
        groupId,
        pgArray(all.map((x) => x[0])),
        pgArray(all.map((x) => x[1])),
        all.length,
        from,
        Math.min(patients, from + CHUNK) - 1,
      ],
    );
  }
  // Exam g's day offset from today: past days first, then today's, then the coming days'.
  const others = n - todayCount;
  const past = Math.round((others * 990) / 999);
  const future = others - past;
  const day = `(case when g < ${past} then -990 + (g::bigint * 990 / ${Math.max(1, past)})::int
    when g < ${past + todayCount} then 0
    else 1 + ((g - ${past + todayCount})::bigint * 9 / ${Math.max(1, future)})::int end)`;
  const common = [
    bucketId,
    pgArray(stations.map((s) => s.aeTitle)),
    pgArray(stations.map((s) => s.modality)),
    pgArray(stations.map((s) => deviceOf.get(s.aeTitle))),
    pgArray(stations.map((s) => PROCEDURES[s.modality][0])),
    pgArray(stations.map((s) => PROCEDURES[s.modality][1])),
    today,
  ];
  for (let from = 0; from < n; from += CHUNK) {
    const to = Math.min(n, from + CHUNK) - 1;
    // Created the day before the appointment, spread over the desk's hours.
    const created = `(date '${today}' + d - 1)::timestamp at time zone 'Asia/Shanghai' + interval '8 hours' + ((g * 37) % 36000) * interval '1 second'`;
    await run(
      `insert into registrations (id, group_id, bucket_id, patient_ref, source, pass_code, patient_source,
         outpatient_id, apply_dept, order_placer, created, updated)
       select 'br-' || g, $2, $1, 'bp-' || (g % $3), case when g % 20 = 7 then 'external' else 'internal' end,
         'P' || lpad(g::text, 9, '0'), 'O', 'MZ' || g, '内科', '李医生', ${created}, ${created}
       from generate_series($4::int, $5::int) g, lateral (select ${day} as d) dd`,
      [bucketId, groupId, patients, from, to],
    );
    await run(
      `insert into scheduled_exams (id, registration_id, bucket_id, status, procedure_name, procedure_code, modality,
         body_part, study_desc, device_id, station_ae_title, scheduled_date, scheduled_time, accession_number,
         study_instance_uid, requested_procedure_id, sps_id, cancelled_at, performed_at, arrived_at, created, updated)
       select 'bs-' || g, 'br-' || g, $1,
         case when d < 0 then (case when g % 20 = 3 then 'Cancelled' else 'Performed' end)
              when d = 0 and g % 5 = 1 then 'Arrived' else 'Scheduled' end,
         ($5::text[])[1 + s], ($6::text[])[1 + s], ($3::text[])[1 + s], '', ($5::text[])[1 + s], ($4::text[])[1 + s],
         ($2::text[])[1 + s], to_char($7::date + d, 'YYYY-MM-DD'),
         lpad((8 + (g / ${stationCount}) % 10)::text, 2, '0') || ':' || lpad(((g / ${stationCount}) % 60)::text, 2, '0'),
         'A' || lpad(g::text, 9, '0'), '1.2.826.0.1.3680043.10.543.9.' || g, 'RP' || g, 'SPS' || g,
         case when d < 0 and g % 20 = 3 then ${created} end, case when d < 0 and g % 20 <> 3 then ${created} + interval '1 day' end,
         case when d < 0 or (d = 0 and g % 5 = 1) then ${created} + interval '1 day' end, ${created}, ${created}
       from generate_series($8::int, $9::int) g, lateral (select ${day} as d, g % ${stationCount} as s) dd`,
      [...common, from, to],
    );
  }
  await run('vacuum (analyze) registry_patients, registrations, scheduled_exams');
  return { bucketId, groupId, stations, patients };
}

/**
 * The worklist the seed scheduled on `today` for every station, as the server would answer it
 * (patient, registration and step): what bench/mwl writes as Orthanc's .wl files.
 */
export function todaysWorklist(run, bucketId, today) {
  return run(
    `select p.name, p.patient_id, p.birth_date, p.gender, e.accession_number, r.order_placer, e.study_instance_uid,
       e.requested_procedure_id, e.procedure_name, e.study_desc, e.modality, e.station_ae_title, e.scheduled_date,
       e.scheduled_time, e.sps_id, e.status
     from scheduled_exams e join registrations r on r.id = e.registration_id join registry_patients p on p.id = r.patient_ref
     where e.bucket_id = $1 and e.scheduled_date = $2 and e.status in ('Scheduled', 'Arrived')
     order by e.accession_number`,
    [bucketId, today],
  );
}
