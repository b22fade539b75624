DROP INDEX "exams_patient_name_key_idx";--> statement-breakpoint
DROP INDEX "exams_patient_name_pinyin_idx";--> statement-breakpoint
DROP INDEX "exams_live_created_idx";--> statement-breakpoint
CREATE INDEX "exams_live_name_key_idx" ON "exams" USING btree (lower(replace(replace("patient_name", '^', ''), ' ', '')) text_pattern_ops,"bucket_id","patient_name_pinyin") WHERE "exams"."deleted_time" is null;--> statement-breakpoint
CREATE INDEX "exams_live_name_pinyin_idx" ON "exams" USING btree ("patient_name_pinyin" text_pattern_ops,"bucket_id") WHERE "exams"."deleted_time" is null;--> statement-breakpoint
CREATE INDEX "exams_name_pinyin_missing_idx" ON "exams" USING btree ("id") WHERE "exams"."patient_name_pinyin" is null;--> statement-breakpoint
CREATE INDEX "exams_live_study_date_idx" ON "exams" USING btree ("study_date","bucket_id","modality","created","id") WHERE "exams"."deleted_time" is null;--> statement-breakpoint
CREATE INDEX "exams_live_created_idx" ON "exams" USING btree ("created" DESC NULLS FIRST,"id" DESC NULLS FIRST,"bucket_id") WHERE "exams"."deleted_time" is null;