-- The ModalitiesInStudy values exams hold, and an index leading with the modality, for the study
-- list's modality filter (exams.list.filters.ts).
CREATE TABLE "exam_modality_values" (
	"value" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE INDEX "exams_live_modality_date_idx" ON "exams" USING btree ("modality","study_date","bucket_id","created","id") WHERE "exams"."deleted_time" is null;--> statement-breakpoint
CREATE FUNCTION "exam_modality_values_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A value already known is left alone without a lock; a new one commits with its exam.
  INSERT INTO exam_modality_values (value)
    SELECT DISTINCT modality FROM new_rows WHERE modality IS NOT NULL ORDER BY 1
    ON CONFLICT (value) DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "exam_modality_value_set"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.modality IS NOT NULL THEN
    INSERT INTO exam_modality_values (value) VALUES (NEW.modality) ON CONFLICT (value) DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "exams_modality_value_insert" AFTER INSERT ON "exams" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION exam_modality_values_add();
--> statement-breakpoint
CREATE TRIGGER "exams_modality_value_update" AFTER UPDATE OF "modality" ON "exams"
  FOR EACH ROW WHEN (OLD.modality IS DISTINCT FROM NEW.modality)
  EXECUTE FUNCTION exam_modality_value_set();
--> statement-breakpoint
INSERT INTO "exam_modality_values" ("value")
  SELECT DISTINCT "modality" FROM "exams" WHERE "modality" IS NOT NULL ON CONFLICT ("value") DO NOTHING;
