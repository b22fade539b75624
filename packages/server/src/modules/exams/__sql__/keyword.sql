-- Text search: keyword contains 'wang' (name, pinyin initials, patient ID, accession number)
-- 42 matches counted
-- then the page's rows and colour rules: page-rows.sql

-- 1. count
select ((select count(*)
    from "exams"
    where (("exams"."bucket_id" = any($1::text[]) and "exams"."deleted_time" is null) and ((lower(replace(replace("exams"."patient_name", '^', ''), ' ', '')) like $2 or "exams"."patient_name_pinyin" like $3) or lower("exams"."patient_id") like $4 or lower("exams"."accession_number") like $5))))
from (values (1)) as one (x);
-- params: ["{\"org-a\",\"org-b\"}","%wang%","%wang%","%wang%","%wang%"]

-- 2. the page's ids, among few matches
select "id",
  null
from "exams"
where "exams"."id" in (select "id"
  from ((select "id"
      from "exams"
      where (("exams"."bucket_id" = any($1::text[]) and "exams"."deleted_time" is null) and ((lower(replace(replace("exams"."patient_name", '^', ''), ' ', '')) like $2 or "exams"."patient_name_pinyin" like $3) or lower("exams"."patient_id") like $4 or lower("exams"."accession_number") like $5)))
    offset 0) as matched)
order by "exams"."created" desc, "exams"."id" desc
limit $6;
-- params: ["{\"org-a\",\"org-b\"}","%wang%","%wang%","%wang%","%wang%",20]
