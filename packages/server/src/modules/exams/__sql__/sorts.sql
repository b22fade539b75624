-- Each sort, descending: the page's ids of a list filtered by one organization
-- then the page's rows and colour rules: page-rows.sql

-- 1. sort by created
select "id",
  null
from "exams"
where (("exams"."bucket_id" = any($1::text[]) and "exams"."deleted_time" is null) and "exams"."bucket_id" in ($2))
order by "exams"."created" desc, "exams"."id" desc
limit $3;
-- params: ["{\"org-a\",\"org-b\"}","org-a",20]

-- 2. sort by studyDate
select "id",
  null
from "exams"
where (("exams"."bucket_id" = any($1::text[]) and "exams"."deleted_time" is null) and "exams"."bucket_id" in ($2))
order by "exams"."study_date" desc, "exams"."study_time" desc, "exams"."id" desc
limit $3;
-- params: ["{\"org-a\",\"org-b\"}","org-a",20]

-- 3. sort by patientName
select "id",
  null
from "exams"
where (("exams"."bucket_id" = any($1::text[]) and "exams"."deleted_time" is null) and "exams"."bucket_id" in ($2))
order by "exams"."patient_name" desc, "exams"."id" desc
limit $3;
-- params: ["{\"org-a\",\"org-b\"}","org-a",20]

-- 4. sort by patientId
select "id",
  null
from "exams"
where (("exams"."bucket_id" = any($1::text[]) and "exams"."deleted_time" is null) and "exams"."bucket_id" in ($2))
order by "exams"."patient_id" desc, "exams"."id" desc
limit $3;
-- params: ["{\"org-a\",\"org-b\"}","org-a",20]

-- 5. sort by accessionNumber
select "id",
  null
from "exams"
where (("exams"."bucket_id" = any($1::text[]) and "exams"."deleted_time" is null) and "exams"."bucket_id" in ($2))
order by "exams"."accession_number" desc, "exams"."id" desc
limit $3;
-- params: ["{\"org-a\",\"org-b\"}","org-a",20]

-- 6. sort by modality
select "id",
  null
from "exams"
where (("exams"."bucket_id" = any($1::text[]) and "exams"."deleted_time" is null) and "exams"."bucket_id" in ($2))
order by "exams"."modality" desc, "exams"."id" desc
limit $3;
-- params: ["{\"org-a\",\"org-b\"}","org-a",20]

-- 7. sort by bodyPart
select "id",
  null
from "exams"
where (("exams"."bucket_id" = any($1::text[]) and "exams"."deleted_time" is null) and "exams"."bucket_id" in ($2))
order by "exams"."body_part" desc, "exams"."id" desc
limit $3;
-- params: ["{\"org-a\",\"org-b\"}","org-a",20]

-- 8. sort by instanceCount
select "id",
  null
from "exams"
where (("exams"."bucket_id" = any($1::text[]) and "exams"."deleted_time" is null) and "exams"."bucket_id" in ($2))
order by "exams"."instance_count" desc, "exams"."id" desc
limit $3;
-- params: ["{\"org-a\",\"org-b\"}","org-a",20]

-- 9. sort by patientGender
select "id",
  null
from "exams"
where (("exams"."bucket_id" = any($1::text[]) and "exams"."deleted_time" is null) and "exams"."bucket_id" in ($2))
order by "exams"."patient_gender" desc, "exams"."id" desc
limit $3;
-- params: ["{\"org-a\",\"org-b\"}","org-a",20]

-- 10. sort by bucketName
select "exams"."id",
  null
from "exams"
inner join "buckets" on "buckets"."id" = "exams"."bucket_id"
where (("exams"."bucket_id" = any($1::text[]) and "exams"."deleted_time" is null) and "exams"."bucket_id" in ($2))
order by "buckets"."name" desc, "exams"."id" desc
limit $3;
-- params: ["{\"org-a\",\"org-b\"}","org-a",20]

-- 11. sort by urgentFlag
select "id",
  null
from "exams"
where (("exams"."bucket_id" = any($1::text[]) and "exams"."deleted_time" is null) and "exams"."bucket_id" in ($2))
order by "exams"."urgent_flag" desc, "exams"."id" desc
limit $3;
-- params: ["{\"org-a\",\"org-b\"}","org-a",20]

-- 12. sort by reportStatus
select "id",
  null
from "exams"
where (("exams"."bucket_id" = any($1::text[]) and "exams"."deleted_time" is null) and "exams"."bucket_id" in ($2))
order by "exams"."report_status" desc, "exams"."id" desc
limit $3;
-- params: ["{\"org-a\",\"org-b\"}","org-a",20]

-- 13. sort by assigneeName
select "exams"."id",
  null
from "exams"
left join "accounts" on "accounts"."id" = "exams"."assignee_id"
where (("exams"."bucket_id" = any($1::text[]) and "exams"."deleted_time" is null) and "exams"."bucket_id" in ($2))
order by "accounts"."name" desc, "exams"."id" desc
limit $3;
-- params: ["{\"org-a\",\"org-b\"}","org-a",20]

-- 14. sort by deletedTime
select "id",
  null
from "exams"
where (("exams"."bucket_id" = any($1::text[]) and "exams"."deleted_time" is null) and "exams"."bucket_id" in ($2))
order by "exams"."deleted_time" desc, "exams"."id" desc
limit $3;
-- params: ["{\"org-a\",\"org-b\"}","org-a",20]
