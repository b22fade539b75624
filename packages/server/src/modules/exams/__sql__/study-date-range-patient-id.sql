-- Date range with another filter: studyDate 20240101 to 20240131 and patientId prefix 'p00'
-- then the page's rows and colour rules: page-rows.sql

-- 1. the page's ids, each with the count
select "id",
  "page_total"
from (select "id",
    count(*) over () as "page_total",
    "created" as "k0",
    "id" as "k1"
  from "exams"
  where (("exams"."bucket_id" = any($1::text[]) and "exams"."deleted_time" is null) and ("exams"."study_date" <> '' and "exams"."study_date" >= $2 and "exams"."study_date" <= $3) and lower("exams"."patient_id") like $4)) "matches"
order by "k0" desc, "k1" desc
limit $5;
-- params: ["{\"org-a\",\"org-b\"}","20240101","20240131","p00%",20]
