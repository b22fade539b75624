DROP INDEX "scheduled_exams_bucket_patient_idx";--> statement-breakpoint
CREATE INDEX "scheduled_exams_bucket_station_date_idx" ON "scheduled_exams" USING btree ("bucket_id","station_ae_title","scheduled_date");--> statement-breakpoint
CREATE INDEX "scheduled_exams_bucket_patient_idx" ON "scheduled_exams" USING btree ("bucket_id","patient_ref","source","created","id");