CREATE TABLE "registry_counts" (
	"bucket_id" text NOT NULL,
	"source" text NOT NULL,
	"status" text NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "registry_counts_bucket_id_source_status_pk" PRIMARY KEY("bucket_id","source","status")
);
--> statement-breakpoint
DROP INDEX "scheduled_exams_bucket_created_idx";--> statement-breakpoint
ALTER TABLE "scheduled_exams" ADD COLUMN "source" text DEFAULT 'internal' NOT NULL;--> statement-breakpoint
ALTER TABLE "registry_counts" ADD CONSTRAINT "registry_counts_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scheduled_exams_bucket_source_created_idx" ON "scheduled_exams" USING btree ("bucket_id","source","created","id");--> statement-breakpoint
CREATE INDEX "scheduled_exams_bucket_created_idx" ON "scheduled_exams" USING btree ("bucket_id","created","id");
--> statement-breakpoint
CREATE FUNCTION "scheduled_exams_source"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A scheduled exam carries its registration's source (which never changes), so the desk's list
  -- filters and counts on scheduled_exams alone.
  NEW.source := coalesce((SELECT source FROM registrations WHERE id = NEW.registration_id), NEW.source);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "scheduled_exams_source_insert" BEFORE INSERT ON "scheduled_exams"
  FOR EACH ROW EXECUTE FUNCTION scheduled_exams_source();
--> statement-breakpoint
UPDATE "scheduled_exams" SET "source" = r."source" FROM "registrations" r
  WHERE r."id" = "scheduled_exams"."registration_id" AND r."source" <> "scheduled_exams"."source";
--> statement-breakpoint
INSERT INTO "registry_counts" ("bucket_id", "source", "status", "n")
  SELECT "bucket_id", "source", "status", count(*) FROM "scheduled_exams" GROUP BY "bucket_id", "source", "status";
--> statement-breakpoint
CREATE FUNCTION "registry_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Scheduled exams per organization, source and status, moved by each statement that writes them.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO registry_counts (bucket_id, source, status, n)
      SELECT bucket_id, source, status, count(*) FROM new_rows GROUP BY bucket_id, source, status
      ON CONFLICT (bucket_id, source, status) DO UPDATE SET n = registry_counts.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE registry_counts c SET n = c.n - d.n
      FROM (SELECT bucket_id, source, status, count(*) AS n FROM old_rows GROUP BY bucket_id, source, status) d
      WHERE c.bucket_id = d.bucket_id AND c.source = d.source AND c.status = d.status;
  ELSE
    INSERT INTO registry_counts (bucket_id, source, status, n)
      SELECT bucket_id, source, status, sum(n) FROM (
        SELECT bucket_id, source, status, -count(*) AS n FROM old_rows GROUP BY bucket_id, source, status
        UNION ALL
        SELECT bucket_id, source, status, count(*) AS n FROM new_rows GROUP BY bucket_id, source, status
      ) x GROUP BY bucket_id, source, status HAVING sum(n) <> 0
      ON CONFLICT (bucket_id, source, status) DO UPDATE SET n = registry_counts.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "scheduled_exams_count_insert" AFTER INSERT ON "scheduled_exams" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION registry_counts_apply();
--> statement-breakpoint
CREATE TRIGGER "scheduled_exams_count_update" AFTER UPDATE ON "scheduled_exams" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION registry_counts_apply();
--> statement-breakpoint
CREATE TRIGGER "scheduled_exams_count_delete" AFTER DELETE ON "scheduled_exams" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION registry_counts_apply();
