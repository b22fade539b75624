-- The study list's search of a name's first two characters: read in the list's order from one index
-- range per head (name key, pinyin initials), and counted from one range of the prefix counters,
-- whose key now leads with the prefix.
ALTER TABLE "exam_name_prefix_counts" DROP CONSTRAINT "exam_name_prefix_counts_bucket_id_prefix_pk";--> statement-breakpoint
ALTER TABLE "exam_name_prefix_counts" ADD CONSTRAINT "exam_name_prefix_counts_prefix_bucket_id_pk" PRIMARY KEY("prefix","bucket_id");--> statement-breakpoint
CREATE INDEX "exams_live_name_head_idx" ON "exams" USING btree (left(lower(replace(replace("patient_name", '^', ''), ' ', '')), 2),"created" DESC NULLS FIRST,"id" DESC NULLS FIRST,"bucket_id") WHERE "exams"."deleted_time" is null;--> statement-breakpoint
CREATE INDEX "exams_live_pinyin_head_idx" ON "exams" USING btree (left("patient_name_pinyin", 2),"created" DESC NULLS FIRST,"id" DESC NULLS FIRST,"bucket_id") WHERE "exams"."deleted_time" is null;