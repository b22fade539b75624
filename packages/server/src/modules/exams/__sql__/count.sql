-- A count (POST exams/query/count): modality CT or MR, age 18 to 65, no report yet

-- 1. countExams
select ((select count(*)
    from "exams"
    where (("exams"."bucket_id" = any($1::text[]) and "exams"."deleted_time" is null) and "exams"."modality" = any(array(select "exam_modality_values"."value"
          from "exam_modality_values"
          where string_to_array("exam_modality_values"."value", '\') && $2::text[])) and ((case when "exams"."patient_dob" ~ '^[0-9]{8}$' then substr(case when "exams"."study_date" ~ '^[0-9]{8}$' then "exams"."study_date" else to_char("exams"."created" at time zone 'UTC', 'YYYYMMDD') end, 1, 4)::int - substr("exams"."patient_dob", 1, 4)::int - (case when substr(case when "exams"."study_date" ~ '^[0-9]{8}$' then "exams"."study_date" else to_char("exams"."created" at time zone 'UTC', 'YYYYMMDD') end, 5, 4) < substr("exams"."patient_dob", 5, 4) then 1 else 0 end) end) is not null and (case when "exams"."patient_dob" ~ '^[0-9]{8}$' then substr(case when "exams"."study_date" ~ '^[0-9]{8}$' then "exams"."study_date" else to_char("exams"."created" at time zone 'UTC', 'YYYYMMDD') end, 1, 4)::int - substr("exams"."patient_dob", 1, 4)::int - (case when substr(case when "exams"."study_date" ~ '^[0-9]{8}$' then "exams"."study_date" else to_char("exams"."created" at time zone 'UTC', 'YYYYMMDD') end, 5, 4) < substr("exams"."patient_dob", 5, 4) then 1 else 0 end) end) >= $3 and (case when "exams"."patient_dob" ~ '^[0-9]{8}$' then substr(case when "exams"."study_date" ~ '^[0-9]{8}$' then "exams"."study_date" else to_char("exams"."created" at time zone 'UTC', 'YYYYMMDD') end, 1, 4)::int - substr("exams"."patient_dob", 1, 4)::int - (case when substr(case when "exams"."study_date" ~ '^[0-9]{8}$' then "exams"."study_date" else to_char("exams"."created" at time zone 'UTC', 'YYYYMMDD') end, 5, 4) < substr("exams"."patient_dob", 5, 4) then 1 else 0 end) end) <= $4) and "exams"."report_status" in ($5)))) as n;
-- params: ["{\"org-a\",\"org-b\"}","{\"CT\",\"MR\"}",18,65,"none"]

-- 2. countExams of the whole list (per-organization counters)
select (select coalesce(sum("bucket_exam_counts"."live"), 0)
  from "bucket_exam_counts"
  where "bucket_exam_counts"."bucket_id" = any($1::text[])) as n;
-- params: ["{\"org-a\",\"org-b\"}"]
