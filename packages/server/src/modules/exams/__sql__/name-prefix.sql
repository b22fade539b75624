-- Name search of three letters: patientName prefix 'zwe' (counted in two disjoint parts)
-- 1000 matches counted
-- then the page's rows and colour rules: page-rows.sql

-- 1. count
select (((select count(*)
      from "exams"
      where (("exams"."bucket_id" = any($1::text[]) and "exams"."deleted_time" is null) and ("exams"."patient_name_pinyin" ~>=~ $2 and "exams"."patient_name_pinyin" ~<~ $3)))) + ((select count(*)
      from "exams"
      where (("exams"."bucket_id" = any($4::text[]) and "exams"."deleted_time" is null) and ((lower(replace(replace("exams"."patient_name", '^', ''), ' ', '')) ~>=~ $5 and lower(replace(replace("exams"."patient_name", '^', ''), ' ', '')) ~<~ $6) and ("exams"."patient_name_pinyin" is null or not ("exams"."patient_name_pinyin" ~>=~ $7 and "exams"."patient_name_pinyin" ~<~ $8)))))))
from (values (1)) as one (x);
-- params: ["{\"org-a\",\"org-b\"}","zwe","zwf","{\"org-a\",\"org-b\"}","zwe","zwf","zwe","zwf"]

-- 2. the page's ids, in the list order
select "id",
  null
from "exams"
where (("exams"."bucket_id" = any($1::text[]) and "exams"."deleted_time" is null) and ((lower(replace(replace("exams"."patient_name", '^', ''), ' ', '')) ~>=~ $2 and lower(replace(replace("exams"."patient_name", '^', ''), ' ', '')) ~<~ $3) or ("exams"."patient_name_pinyin" ~>=~ $4 and "exams"."patient_name_pinyin" ~<~ $5)))
order by "exams"."created" desc, "exams"."id" desc
limit $6;
-- params: ["{\"org-a\",\"org-b\"}","zwe","zwf","zwe","zwf",20]
