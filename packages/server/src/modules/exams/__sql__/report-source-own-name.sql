-- Report source own ('1') and patientName prefix 'zw': the prefix counters less the remote matches
-- 1000 matches counted
-- then the page's rows and colour rules: page-rows.sql

-- 1. count
select ((select coalesce(sum("exam_name_prefix_counts"."live"), 0)
    from "exam_name_prefix_counts"
    where "exam_name_prefix_counts"."bucket_id" = any($1::text[]) and "exam_name_prefix_counts"."prefix" = $2) - ((select count(*)
      from "exams"
      where (("exams"."bucket_id" = any($3::text[]) and "exams"."deleted_time" is null) and ((lower(replace(replace("exams"."patient_name", '^', ''), ' ', '')) ~>=~ $4 and lower(replace(replace("exams"."patient_name", '^', ''), ' ', '')) ~<~ $5) or ("exams"."patient_name_pinyin" ~>=~ $6 and "exams"."patient_name_pinyin" ~<~ $7)) and "exams"."source" = 'remote'))))
from (values (1)) as one (x);
-- params: ["{\"org-a\",\"org-b\"}","zw","{\"org-a\",\"org-b\"}","zw","zx","zw","zx"]

-- 2. the page's ids, in the list order
select "id",
  null
from "exams"
where (("exams"."bucket_id" = any($1::text[]) and "exams"."deleted_time" is null) and ((lower(replace(replace("exams"."patient_name", '^', ''), ' ', '')) ~>=~ $2 and lower(replace(replace("exams"."patient_name", '^', ''), ' ', '')) ~<~ $3) or ("exams"."patient_name_pinyin" ~>=~ $4 and "exams"."patient_name_pinyin" ~<~ $5)) and "exams"."source" <> 'remote')
order by "exams"."created" desc, "exams"."id" desc
limit $6;
-- params: ["{\"org-a\",\"org-b\"}","zw","zx","zw","zx",20]
