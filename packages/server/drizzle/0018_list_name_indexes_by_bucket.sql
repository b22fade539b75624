DROP INDEX "exams_live_name_key_idx";--> statement-breakpoint
DROP INDEX "exams_live_name_pinyin_idx";--> statement-breakpoint
CREATE INDEX "exams_live_name_key_idx" ON "exams" USING btree ("bucket_id",lower(replace(replace("patient_name", '^', ''), ' ', '')) text_pattern_ops,"patient_name_pinyin") WHERE "exams"."deleted_time" is null;--> statement-breakpoint
CREATE INDEX "exams_live_name_pinyin_idx" ON "exams" USING btree ("bucket_id","patient_name_pinyin" text_pattern_ops) WHERE "exams"."deleted_time" is null;