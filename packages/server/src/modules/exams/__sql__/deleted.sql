-- The deleted-exams view: deleted after 2024-06-01, no filter
-- 5 matches counted
-- then the page's rows and colour rules: page-rows.sql

-- 1. count
select ((select count(*)
    from "exams"
    where ("exams"."bucket_id" = any($1::text[]) and ("exams"."deleted_time" is not null and "exams"."deleted_time" > $2))))
from (values (1)) as one (x);
-- params: ["{\"org-a\",\"org-b\"}","2024-06-01T00:00:00.000Z"]

-- 2. the page's ids, among few matches (named)
select "id",
  null
from "exams"
where "exams"."id" in (select "id"
  from ((select "id"
      from "exams"
      where ("exams"."bucket_id" = any($1::text[]) and ("exams"."deleted_time" is not null and "exams"."deleted_time" > $2)))
    offset 0) as matched)
order by "exams"."deleted_time" desc, "exams"."id" desc
limit $3;
-- params: ["{\"org-a\",\"org-b\"}","2024-06-01T00:00:00.000Z",20]
