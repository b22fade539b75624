CREATE TABLE "bucket_exam_counts" (
	"bucket_id" text PRIMARY KEY NOT NULL,
	"live" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bucket_exam_counts" ADD CONSTRAINT "bucket_exam_counts_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE FUNCTION "exam_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Live (not deleted) exams per organization, moved by each statement that writes exams.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO bucket_exam_counts (bucket_id, live)
      SELECT bucket_id, count(*) FROM new_rows WHERE deleted_time IS NULL GROUP BY bucket_id
      ON CONFLICT (bucket_id) DO UPDATE SET live = bucket_exam_counts.live + excluded.live;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE bucket_exam_counts c SET live = c.live - d.n
      FROM (SELECT bucket_id, count(*) AS n FROM old_rows WHERE deleted_time IS NULL GROUP BY bucket_id) d
      WHERE c.bucket_id = d.bucket_id;
  ELSE
    INSERT INTO bucket_exam_counts (bucket_id, live)
      SELECT bucket_id, sum(n) FROM (
        SELECT bucket_id, -count(*) AS n FROM old_rows WHERE deleted_time IS NULL GROUP BY bucket_id
        UNION ALL
        SELECT bucket_id, count(*) AS n FROM new_rows WHERE deleted_time IS NULL GROUP BY bucket_id
      ) x GROUP BY bucket_id HAVING sum(n) <> 0
      ON CONFLICT (bucket_id) DO UPDATE SET live = bucket_exam_counts.live + excluded.live;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "exams_count_insert" AFTER INSERT ON "exams" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION exam_counts_apply();
--> statement-breakpoint
CREATE TRIGGER "exams_count_update" AFTER UPDATE ON "exams" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION exam_counts_apply();
--> statement-breakpoint
CREATE TRIGGER "exams_count_delete" AFTER DELETE ON "exams" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION exam_counts_apply();
--> statement-breakpoint
INSERT INTO "bucket_exam_counts" ("bucket_id", "live")
  SELECT "bucket_id", count(*) FROM "exams" WHERE "deleted_time" IS NULL GROUP BY "bucket_id";
