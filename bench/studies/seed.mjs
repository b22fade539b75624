// Bulk seed for bench/studies: 50 organizations in the demo group (the senior doctor a content
// manager in each) and n exams with their patients, written with generate_series in chunks: Chinese
// and Latin names (with the pinyin initials the ingest would store), six modalities, study dates
// over three years (each received on its study day), 1 % deleted, 1 % remote copies (source 'remote',
// an expert read's copy: the report source filter's remote reports). Exams are written in the order
// they arrive, oldest day first, as an archive receives them, so a day's exams lie together in the
// table (written round-robin over the days, each day's were spread over all of it, and reading a
// week's entries from an index re-read the visibility map every few rows).
import { names, pgArray } from '../lib/names.mjs';

const CHUNK = 100_000;

export async function seedExams(run, n) {
  const [group] = await run(`select id from groups where id = 'demo-renhe'`);
  const [senior] = await run(`select id from accounts where username = 'senior'`);
  if (!group || !senior) throw new Error('the demo group and the senior doctor must exist');
  const bucketIds = Array.from({ length: 50 }, (_, i) => `bench-b-${String(i + 1).padStart(2, '0')}`);
  await run(
    `insert into buckets (id, group_id, name, code, is_private)
     select b, 'demo-renhe', '基准机构' || right(b, 2), 'BENCH-' || right(b, 2), false from unnest($1::text[]) b`,
    [pgArray(bucketIds)],
  );
  await run(
    `insert into bucket_members (bucket_id, account_id, access_level)
     select b, $2, 'contentManager' from unnest($1::text[]) b`,
    [pgArray(bucketIds), senior.id],
  );
  const all = names();
  const patients = Math.max(50, Math.floor(n / 5 / 50) * 50);
  for (let from = 0; from < patients; from += CHUNK) {
    await run(
      `insert into patients (id, bucket_id, patient_key, patient_id, name, sex, birth_date)
       select 'bp-' || g, ($1::text[])[1 + g % 50], 'BP' || lpad(g::text, 8, '0'), 'BP' || lpad(g::text, 8, '0'),
         ($2::text[])[1 + g % $3], case when g % 2 = 0 then 'M' else 'F' end,
         to_char(date '1940-01-01' + (g * 7919) % 30000, 'YYYYMMDD')
       from generate_series($4::int, $5::int) g`,
      [pgArray(bucketIds), pgArray(all.map((x) => x[0])), all.length, from, Math.min(patients, from + CHUNK) - 1],
    );
  }
  for (let from = 0; from < n; from += CHUNK) {
    await run(
      `insert into exams (id, bucket_id, store_uid, patient_key_id, patient_name, patient_name_pinyin, patient_id,
         patient_gender, patient_dob, accession_number, study_date, study_time, study_desc, study_id, modality,
         body_part, institution, referring_physician, specific_character_set, has_image, series_count,
         instance_count, source, created, updated, deleted_time)
       select 'be-' || g, ($1::text[])[1 + g % 50], '1.2.826.0.1.3680043.10.543.' || g, 'bp-' || p,
         ($2::text[])[1 + p % $4], ($3::text[])[1 + p % $4], 'BP' || lpad(p::text, 8, '0'),
         case when p % 2 = 0 then 'M' else 'F' end, to_char(date '1940-01-01' + (p * 7919) % 30000, 'YYYYMMDD'),
         'ACC' || g, to_char(date '2026-11-16' - d, 'YYYYMMDD'), '093000',
         (array['胸部 CT 平扫', '头颅 MR', '胸部正位', '腹部超声', '腰椎正侧位', '乳腺钼靶'])[1 + g % 6], '',
         (array['CT', 'MR', 'DX', 'US', 'CR', 'MG'])[1 + g % 6],
         (array['CHEST', 'HEAD', 'CHEST', 'ABDOMEN', 'LSPINE', 'BREAST'])[1 + g % 6],
         'Bench Hospital', '', 'ISO_IR 192', true, 1, 100, case when g % 100 = 37 then 'remote' else 'dimse' end,
         timestamptz '2026-11-16 00:00:00+00' - d * interval '1 day' + ((g * 37) % 86400) * interval '1 second',
         timestamptz '2026-11-16 00:00:00+00' - d * interval '1 day' + ((g * 37) % 86400) * interval '1 second',
         case when g % 100 = 0 then timestamptz '2026-11-20 00:00:00+00' else null end
       from generate_series($5::int, $6::int) g, lateral (select g % $7 as p, (1094 - g::bigint * 1095 / $8)::int as d) pp`,
      [
        pgArray(bucketIds),
        pgArray(all.map((x) => x[0])),
        pgArray(all.map((x) => x[1])),
        all.length,
        from,
        Math.min(n, from + CHUNK) - 1,
        patients,
        n,
      ],
    );
  }
  // A working archive's tables are vacuumed (hint bits set, visibility map current): measure that
  // steady state rather than the first reads after a bulk load.
  await run('vacuum (analyze) exams');
  await run('analyze');
  const visible = await run(`select bucket_id from bucket_members where account_id = $1`, [senior.id]);
  return { bucketIds: visible.map((r) => r.bucket_id) };
}
