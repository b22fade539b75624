import crypto from 'node:crypto';
import type { ParsedInstance } from '../../dicom/parse.js';
import type { RawTx } from '../../platform/sql.js';
import { nameInitials } from './pinyin.js';
import { IngestRefused, uploadBlock } from './plan.js';

/**
 * All SQL of the ingest, for a batch of instances at once (group commit): one statement upserts
 * patients, exams, series and instances keyed by the DICOM UIDs (a re-sent instance is stored
 * once) and adds the batch to the exam and series counters as it goes; a second, only when the
 * first counted wrong in advance or new studies count against a plan, corrects them. Both are constant texts
 * over array parameters, so the database prepares them once whatever the batch holds. Rows are
 * sorted by key so that two writers lock shared rows in the same order.
 */

export interface PendingInstance {
  bucketId: string;
  p: ParsedInstance;
  blobKey: string;
  size: number;
  source: string;
}

export interface WrittenInstance {
  examId: string;
  seriesId: string;
  instanceId: string;
  /** the instance was already stored (before or earlier in this batch): nothing new was written */
  duplicate: boolean;
  /** this instance created the exam (at most one per exam) */
  newExam: boolean;
}

const SEP = '\u0000';
/** ModalitiesInStudy keeps the first this many distinct modalities: a list row stays small whatever the series say. */
const MAX_MODALITIES = 16;
const patientKeyOf = (i: PendingInstance) => i.p.patient.id || `study:${i.p.studyInstanceUid}`;
const examKey = (i: PendingInstance) => i.bucketId + SEP + i.p.studyInstanceUid;
const seriesKey = (i: PendingInstance) => examKey(i) + SEP + i.p.seriesInstanceUid;
const instanceKey = (bucketId: string, sop: string) => bucketId + SEP + sop;

/** The first item of each key, in key order. */
function firstByKey(items: PendingInstance[], key: (i: PendingInstance) => string): PendingInstance[] {
  const map = new Map<string, PendingInstance>();
  for (const i of items) if (!map.has(key(i))) map.set(key(i), i);
  return [...map.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((e) => e[1]);
}

const UPSERT = `
with p as (
  insert into patients (id, bucket_id, patient_key, patient_id, name, sex, birth_date, created_at, updated_at)
  select u.id, u.bucket_id, u.patient_key, u.patient_id, u.name, u.sex, u.birth_date, $1, $1
  from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
    as u(id, bucket_id, patient_key, patient_id, name, sex, birth_date)
  on conflict (bucket_id, patient_key) do update set updated_at = excluded.updated_at
  returning id, bucket_id, patient_key
), e as (
  insert into exams (id, bucket_id, store_uid, patient_key_id, patient_name, patient_name_pinyin, patient_id,
    patient_gender, patient_dob, accession_number, study_date, study_time, study_desc, study_id, modality,
    body_part, institution, referring_physician, specific_character_set, has_image, source, upload_status,
    instance_count, series_count, size_bytes, created, updated)
  select u.id, u.bucket_id, u.store_uid, p.id, u.patient_name, u.pinyin, u.patient_id, u.patient_gender,
    u.patient_dob, u.accession_number, u.study_date, u.study_time, u.study_desc, u.study_id, u.modality,
    u.body_part, u.institution, u.referring_physician, u.charset, true, u.source,
    case when u.source in ('web', 'token') then 'processing' else 'completed' end, u.n, u.n_series, u.bytes, $1, $1
  from unnest($9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[],
    $16::text[], $17::text[], $18::text[], $19::text[], $20::text[], $21::text[], $22::text[], $23::text[],
    $24::text[], $25::text[], $26::text[], $27::text[], $51::text[], $52::int[], $53::int[], $54::bigint[])
    as u(id, bucket_id, store_uid, patient_key, patient_name, patient_id, patient_gender, patient_dob,
      accession_number, study_date, study_time, study_desc, study_id, modality, body_part, institution,
      referring_physician, charset, source, pinyin, n, n_series, bytes)
  join p on p.bucket_id = u.bucket_id and p.patient_key = u.patient_key
  on conflict (bucket_id, store_uid) do update set updated = excluded.updated,
    upload_status = case when excluded.upload_status = 'processing' then 'processing' else exams.upload_status end,
    instance_count = exams.instance_count + excluded.instance_count,
    size_bytes = exams.size_bytes + excluded.size_bytes,
    modality = array_to_string(array(
      select m from unnest(string_to_array(exams.modality, '\\') || string_to_array(excluded.modality, '\\'))
        with ordinality as t(m, o)
      where m <> '' group by m order by min(o) limit 16), '\\')
  returning id, bucket_id, store_uid, (xmax = 0) as created
), s as (
  insert into series (id, exam_id, bucket_id, series_uid, modality, series_number, description, body_part,
    series_date, series_time, instance_count, created_at)
  select u.id, e.id, u.bucket_id, u.series_uid, u.modality, u.number, u.description, u.body_part, u.date,
    u.time, u.n, $1
  from unnest($28::text[], $29::text[], $30::text[], $31::text[], $32::text[], $33::int[], $34::text[],
    $35::text[], $36::text[], $37::text[], $55::int[])
    as u(id, bucket_id, store_uid, series_uid, modality, number, description, body_part, date, time, n)
  join e on e.bucket_id = u.bucket_id and e.store_uid = u.store_uid
  on conflict (exam_id, series_uid) do update set instance_count = series.instance_count + excluded.instance_count
  returning id, exam_id, series_uid, (xmax = 0) as created
), i as (
  insert into instances (id, series_id, exam_id, bucket_id, sop_instance_uid, sop_class_uid,
    transfer_syntax_uid, instance_number, rows, columns, frames, blob_key, size, created_at)
  select u.id, s.id, e.id, u.bucket_id, u.sop, u.sop_class, u.ts, u.number, u.rows, u.columns, u.frames,
    u.blob_key, u.size, $1
  from unnest($38::text[], $39::text[], $40::text[], $41::text[], $42::text[], $43::text[], $44::text[],
    $45::int[], $46::int[], $47::int[], $48::int[], $49::text[], $50::int[])
    as u(id, bucket_id, store_uid, series_uid, sop, sop_class, ts, number, rows, columns, frames, blob_key, size)
  join e on e.bucket_id = u.bucket_id and e.store_uid = u.store_uid
  join s on s.exam_id = e.id and s.series_uid = u.series_uid
  on conflict (bucket_id, sop_instance_uid) do nothing
  returning id, bucket_id, sop_instance_uid, exam_id, series_id
)
select 'i' as kind, id, bucket_id, sop_instance_uid as uid, exam_id, series_id, null::boolean as created from i
union all select 'e', id, bucket_id, store_uid, id, null, created from e
union all select 's', id, null, series_uid, exam_id, id, created from s
union all select 'b', b.id, b.id, json_build_object('isPrivate', b.is_private, 'planKind', b.plan_kind,
    'planExpiresAt', b.plan_expires_at)::text, null, null, null
  from buckets b where b.id = any($3::text[]) and b.is_private`;

interface UpsertRow {
  kind: 'i' | 'e' | 's' | 'b';
  id: string;
  bucket_id: string | null;
  uid: string;
  exam_id: string | null;
  series_id: string | null;
  created: boolean | null;
}

/**
 * What the upsert could not count in advance: series new to an exam that already existed, and
 * instances that were already stored (the upsert counted every instance of the batch as new), as
 * signed deltas; and the organizations' studies against their plan quota. Most batches (the later
 * instances of a series) need none of it.
 */
const CORRECT = `
with s as (
  update series set instance_count = series.instance_count + u.n
  from unnest($1::text[], $2::int[]) as u(id, n) where series.id = u.id
  returning 1
), e as (
  update exams set
    instance_count = exams.instance_count + u.n,
    series_count = exams.series_count + u.new_series,
    size_bytes = exams.size_bytes + u.bytes
  from unnest($3::text[], $4::int[], $5::int[], $6::bigint[]) as u(id, n, new_series, bytes)
  where exams.id = u.id
  returning 1
)
update buckets set plan_used = buckets.plan_used + u.n
from unnest($7::text[], $8::int[]) as u(id, n)
where buckets.id = u.id
  and (not buckets.is_private or buckets.plan_quota is null or buckets.plan_used + u.n <= buckets.plan_quota)
returning buckets.id`;

const EXISTING = `
select i.id, i.bucket_id, i.sop_instance_uid, i.exam_id, i.series_id
from instances i join unnest($1::text[], $2::text[]) as u(bucket_id, sop) on i.bucket_id = u.bucket_id and i.sop_instance_uid = u.sop`;

/** Writes a batch (one transaction is the caller's); answers one result per item, in order. */
export async function writeBatch(tx: RawTx, items: PendingInstance[], now: Date): Promise<WrittenInstance[]> {
  const patients = firstByKey(items, (i) => i.bucketId + SEP + patientKeyOf(i));
  const examsIn = firstByKey(items, examKey);
  const seriesIn = firstByKey(items, seriesKey);
  const instancesIn = firstByKey(items, (i) => instanceKey(i.bucketId, i.p.sopInstanceUid));
  // What the upsert counts in advance: every distinct instance of the batch as new.
  const perExamIn = new Map<string, { n: number; bytes: number; series: Set<string>; modalities: Set<string> }>();
  const perSeriesIn = new Map<string, number>();
  for (const i of instancesIn) {
    const e = perExamIn.get(examKey(i)) ?? { n: 0, bytes: 0, series: new Set(), modalities: new Set() };
    e.n += 1;
    e.bytes += i.size;
    e.series.add(i.p.seriesInstanceUid);
    if (i.p.series.modality) e.modalities.add(i.p.series.modality);
    perExamIn.set(examKey(i), e);
    perSeriesIn.set(seriesKey(i), (perSeriesIn.get(seriesKey(i)) ?? 0) + 1);
  }
  const examIn = (i: PendingInstance) => perExamIn.get(examKey(i))!;
  const col = <T>(rows: PendingInstance[], f: (i: PendingInstance) => T) => rows.map(f);
  const uuid = () => crypto.randomUUID();
  const params: unknown[] = [
    now,
    col(patients, uuid),
    col(patients, (i) => i.bucketId),
    col(patients, patientKeyOf),
    col(patients, (i) => i.p.patient.id),
    col(patients, (i) => i.p.patient.name),
    col(patients, (i) => i.p.patient.sex),
    col(patients, (i) => i.p.patient.birthDate),
    col(examsIn, uuid),
    col(examsIn, (i) => i.bucketId),
    col(examsIn, (i) => i.p.studyInstanceUid),
    col(examsIn, patientKeyOf),
    col(examsIn, (i) => i.p.patient.name),
    col(examsIn, (i) => i.p.patient.id),
    col(examsIn, (i) => i.p.patient.sex),
    col(examsIn, (i) => i.p.patient.birthDate),
    col(examsIn, (i) => i.p.study.accessionNumber),
    col(examsIn, (i) => i.p.study.date),
    col(examsIn, (i) => i.p.study.time),
    col(examsIn, (i) => i.p.study.description),
    col(examsIn, (i) => i.p.study.id),
    col(examsIn, (i) => [...examIn(i).modalities].slice(0, MAX_MODALITIES).join('\\')),
    col(examsIn, (i) => i.p.series.bodyPart),
    col(examsIn, (i) => i.p.study.institution),
    col(examsIn, (i) => i.p.study.referringPhysician),
    col(examsIn, (i) => i.p.specificCharacterSet),
    col(examsIn, (i) => i.source),
    col(seriesIn, uuid),
    col(seriesIn, (i) => i.bucketId),
    col(seriesIn, (i) => i.p.studyInstanceUid),
    col(seriesIn, (i) => i.p.seriesInstanceUid),
    col(seriesIn, (i) => i.p.series.modality),
    col(seriesIn, (i) => i.p.series.number),
    col(seriesIn, (i) => i.p.series.description),
    col(seriesIn, (i) => i.p.series.bodyPart),
    col(seriesIn, (i) => i.p.series.date),
    col(seriesIn, (i) => i.p.series.time),
    col(instancesIn, uuid),
    col(instancesIn, (i) => i.bucketId),
    col(instancesIn, (i) => i.p.studyInstanceUid),
    col(instancesIn, (i) => i.p.seriesInstanceUid),
    col(instancesIn, (i) => i.p.sopInstanceUid),
    col(instancesIn, (i) => i.p.sopClassUid),
    col(instancesIn, (i) => i.p.transferSyntaxUid),
    col(instancesIn, (i) => i.p.instance.number),
    col(instancesIn, (i) => i.p.instance.rows),
    col(instancesIn, (i) => i.p.instance.columns),
    col(instancesIn, (i) => i.p.instance.frames),
    col(instancesIn, (i) => i.blobKey),
    col(instancesIn, (i) => i.size),
    // $51, the exams' pinyin initials: appended last so the numbering above stays as it was.
    col(examsIn, (i) => nameInitials(i.p.patient.name)),
    // $52–$55: the counts the upsert adds (instances, series, bytes per exam; instances per series).
    col(examsIn, (i) => examIn(i).n),
    col(examsIn, (i) => examIn(i).series.size),
    col(examsIn, (i) => examIn(i).bytes),
    col(seriesIn, (i) => perSeriesIn.get(seriesKey(i))!),
  ];
  const rows = await tx.query<UpsertRow>('ingest_upsert', UPSERT, params);

  const examRows = new Map<string, UpsertRow>();
  const seriesRows = new Map<string, UpsertRow>();
  const inserted = new Map<string, UpsertRow>();
  const newStudies = new Map<string, number>();
  for (const r of rows) {
    if (r.kind === 'e') {
      examRows.set(r.bucket_id! + SEP + r.uid, r);
      if (r.created) newStudies.set(r.bucket_id!, (newStudies.get(r.bucket_id!) ?? 0) + 1);
    } else if (r.kind === 's') seriesRows.set(r.exam_id! + SEP + r.uid, r);
    else if (r.kind === 'i') inserted.set(instanceKey(r.bucket_id!, r.uid), r);
    else {
      // A private organization in this batch: it receives nothing without a valid subscription.
      const plan = JSON.parse(r.uid) as { isPrivate: boolean; planKind: string | null; planExpiresAt: string | null };
      const block = uploadBlock(
        {
          ...plan,
          planQuota: null,
          planUsed: 0,
          planExpiresAt: plan.planExpiresAt ? new Date(plan.planExpiresAt) : null,
        },
        now,
        0,
      );
      if (block) throw new IngestRefused(block);
    }
  }

  // Counters: what this batch really added, per series and per exam, against what the upsert
  // counted in advance; only a difference (a re-sent instance, a series new to an existing exam)
  // and new studies (the plan quota) need a second statement.
  const perSeries = new Map<string, number>();
  const perExam = new Map<string, { n: number; newSeries: number; bytes: number }>();
  const delta = (examId: string) => {
    const d = perExam.get(examId) ?? { n: 0, newSeries: 0, bytes: 0 };
    perExam.set(examId, d);
    return d;
  };
  const claimed = new Set<string>();
  const filled = new Set<string>();
  for (const i of instancesIn) {
    const exam = examRows.get(examKey(i))!;
    const series = seriesRows.get(exam.id + SEP + i.p.seriesInstanceUid)!;
    const row = inserted.get(instanceKey(i.bucketId, i.p.sopInstanceUid));
    if (row) {
      claimed.add(row.id);
      if (series.created) filled.add(series.id);
      continue;
    }
    perSeries.set(series.id, (perSeries.get(series.id) ?? 0) - 1);
    const d = delta(exam.id);
    d.n -= 1;
    d.bytes -= i.size;
  }
  // series_count: the series created here that received an instance (the upsert counted every
  // series of a new exam, and none of an existing one).
  for (const [key, e] of perExamIn) {
    const exam = examRows.get(key)!;
    let created = 0;
    for (const uid of e.series) if (filled.has(seriesRows.get(exam.id + SEP + uid)!.id)) created++;
    const counted = exam.created ? e.series.size : 0;
    if (created !== counted) delta(exam.id).newSeries += created - counted;
  }
  const s = [...perSeries.entries()].filter((x) => x[1] !== 0).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const e = [...perExam.entries()]
    .filter((x) => x[1].n !== 0 || x[1].newSeries !== 0 || x[1].bytes !== 0)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1));
  if (s.length > 0 || e.length > 0 || newStudies.size > 0) {
    const b = [...newStudies.entries()].sort((x, y) => (x[0] < y[0] ? -1 : 1));
    const counted = await tx.query<{ id: string }>('ingest_correct', CORRECT, [
      s.map((x) => x[0]),
      s.map((x) => x[1]),
      e.map((x) => x[0]),
      e.map((x) => x[1].n),
      e.map((x) => x[1].newSeries),
      e.map((x) => x[1].bytes),
      b.map((x) => x[0]),
      b.map((x) => x[1]),
    ]);
    // A private organization whose quota these new studies would exceed: the batch is undone.
    if (counted.length < b.length) throw new IngestRefused('BucketFull');
  }

  // Instances stored before this batch (a re-send, or a concurrent writer won the race).
  const missing = instancesIn.filter((i) => !inserted.has(instanceKey(i.bucketId, i.p.sopInstanceUid)));
  const existing = new Map<string, { id: string; exam_id: string; series_id: string }>();
  if (missing.length > 0) {
    const found = await tx.query<{
      id: string;
      bucket_id: string;
      sop_instance_uid: string;
      exam_id: string;
      series_id: string;
    }>('ingest_existing', EXISTING, [missing.map((i) => i.bucketId), missing.map((i) => i.p.sopInstanceUid)]);
    for (const f of found) existing.set(instanceKey(f.bucket_id, f.sop_instance_uid), f);
  }

  const announced = new Set<string>();
  return items.map((i) => {
    const key = instanceKey(i.bucketId, i.p.sopInstanceUid);
    const row = inserted.get(key);
    if (row && claimed.delete(row.id)) {
      const exam = examRows.get(examKey(i));
      const newExam = Boolean(exam?.created) && !announced.has(row.exam_id!);
      if (newExam) announced.add(row.exam_id!);
      return { examId: row.exam_id!, seriesId: row.series_id!, instanceId: row.id, duplicate: false, newExam };
    }
    const prior = row ?? existing.get(key);
    if (!prior) throw new Error(`instance ${i.p.sopInstanceUid} neither stored nor found`);
    return {
      examId: prior.exam_id!,
      seriesId: prior.series_id!,
      instanceId: prior.id,
      duplicate: true,
      newExam: false,
    };
  });
}
