-- Report source own ('1') alone: a landing list, counted as the counters less the remote copies

-- 1. the landing list: page, count and colour rules
select "exams"."id",
  "exams"."store_uid",
  "exams"."bucket_id",
  "buckets"."name",
  "buckets"."group_id",
  "exams"."patient_name",
  "exams"."patient_id",
  "exams"."patient_gender",
  "exams"."patient_dob",
  "exams"."accession_number",
  "exams"."modality",
  "exams"."body_part",
  "exams"."study_date",
  "exams"."study_time",
  "exams"."study_desc",
  "exams"."created",
  "exams"."has_image",
  "exams"."upload_status",
  "exams"."study_printed",
  "exams"."series_count",
  "exams"."instance_count",
  "exams"."deleted_time",
  "exams"."patient_source",
  "exams"."apply_dept",
  "exams"."order_placer",
  "exams"."urgent_flag",
  "exams"."tele_med_flag",
  "exams"."is_privacy",
  "exams"."critical_flag",
  "exams"."report_status",
  "exams"."assignee_id",
  "accounts"."name",
  "exams"."ai_status",
  (select json_agg(json_build_object('id', "bucket_dictionary"."id", 'name', "bucket_dictionary"."name", 'color', "bucket_dictionary"."data"->>'color')
    order by "bucket_dictionary"."sort", "bucket_dictionary"."name")::text
  from "exam_tags" join "bucket_dictionary" on "bucket_dictionary"."id" = "exam_tags"."tag_id"
  where "exam_tags"."exam_id" = "exams"."id"),
  (select coalesce(json_agg(json_build_array( "color_rules"."group_id", "color_rules"."priority", "color_rules"."index", "color_rules"."fore_color", "color_rules"."background_color", "color_rules"."match_field", "color_rules"."value")
      order by "color_rules"."priority", "color_rules"."index"), '[]')
  from "color_rules"
  where "color_rules"."group_id" in (select "buckets"."group_id"
    from "buckets"
    where "buckets"."id" = any('{"org-a","org-b"}'::text[]))),
  (select coalesce(json_agg(json_build_array("report_table_colors"."group_id", "report_table_colors"."field", "report_table_colors"."value", "report_table_colors"."color", "report_table_colors"."background", "report_table_colors"."priority")
      order by "report_table_colors"."priority", "report_table_colors"."created_at", "report_table_colors"."id"), '[]')
  from "report_table_colors"
  where "report_table_colors"."group_id" in (select "buckets"."group_id"
    from "buckets"
    where "buckets"."id" = any('{"org-a","org-b"}'::text[]))),
  ((select coalesce(sum("bucket_exam_counts"."live"), 0)
    from "bucket_exam_counts"
    where "bucket_exam_counts"."bucket_id" = any('{"org-a","org-b"}'::text[])) - ((select count(*)
      from "exams"
      where (("exams"."bucket_id" = any('{"org-a","org-b"}'::text[]) and "exams"."deleted_time" is null) and "exams"."source" = 'remote'))))
from (select "id",
    null
  from "exams"
  where (("exams"."bucket_id" = any('{"org-a","org-b"}'::text[]) and "exams"."deleted_time" is null) and "exams"."source" <> 'remote')
  order by "exams"."created" desc, "exams"."id" desc
  limit 20) "page"
inner join "exams" on "exams"."id" = "page"."id"
inner join "buckets" on "buckets"."id" = "exams"."bucket_id"
left join "accounts" on "accounts"."id" = "exams"."assignee_id"
order by "exams"."created" desc, "exams"."id" desc;
-- params: []
