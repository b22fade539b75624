ALTER TABLE "exams" ADD COLUMN "patient_name_pinyin" text;--> statement-breakpoint
CREATE INDEX "exams_live_created_idx" ON "exams" USING btree ("created" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "exams"."deleted_time" is null;--> statement-breakpoint
CREATE INDEX "exams_live_bucket_created_idx" ON "exams" USING btree ("bucket_id","created" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "exams"."deleted_time" is null;--> statement-breakpoint
CREATE INDEX "exams_patient_name_key_idx" ON "exams" USING btree (lower(replace(replace("patient_name", '^', ''), ' ', '')) text_pattern_ops);--> statement-breakpoint
CREATE INDEX "exams_patient_name_pinyin_idx" ON "exams" USING btree ("patient_name_pinyin" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "exams_patient_id_lower_idx" ON "exams" USING btree (lower("patient_id") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "exams_accession_lower_idx" ON "exams" USING btree (lower("accession_number") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "exams_deleted_time_idx" ON "exams" USING btree ("deleted_time") WHERE "exams"."deleted_time" is not null;