ALTER TABLE "scheduled_exams" ADD COLUMN "patient_ref" text;--> statement-breakpoint
CREATE INDEX "scheduled_exams_bucket_patient_idx" ON "scheduled_exams" USING btree ("bucket_id","patient_ref");--> statement-breakpoint
CREATE FUNCTION "scheduled_exams_patient"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A scheduled exam carries its registration's patient, so the desk's search box goes from the
  -- patients it finds to their exams by scheduled_exams_bucket_patient_idx (registry-query.store.ts).
  NEW.patient_ref := (SELECT patient_ref FROM registrations WHERE id = NEW.registration_id);
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "scheduled_exams_patient_insert" BEFORE INSERT OR UPDATE OF "registration_id" ON "scheduled_exams"
  FOR EACH ROW EXECUTE FUNCTION scheduled_exams_patient();--> statement-breakpoint
CREATE FUNCTION "registrations_patient_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE scheduled_exams SET patient_ref = NEW.patient_ref WHERE registration_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "registrations_patient_update" AFTER UPDATE OF "patient_ref" ON "registrations"
  FOR EACH ROW WHEN (OLD.patient_ref IS DISTINCT FROM NEW.patient_ref) EXECUTE FUNCTION registrations_patient_follow();--> statement-breakpoint
UPDATE "scheduled_exams" SET "patient_ref" = r."patient_ref" FROM "registrations" r
  WHERE r."id" = "scheduled_exams"."registration_id";
