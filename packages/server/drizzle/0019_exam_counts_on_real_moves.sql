-- The live-exam counters followed every UPDATE of exams with a statement trigger reading both
-- transition tables, although only a change of deleted_time or bucket_id moves them: each ingest
-- batch (two exam updates), each report status change, paid for it. Now a row trigger fires only
-- for the rows where one of those two really changed (its WHEN is tested without calling it).
DROP TRIGGER "exams_count_update" ON "exams";
--> statement-breakpoint
CREATE FUNCTION "exam_counts_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.deleted_time IS NULL THEN
    UPDATE bucket_exam_counts SET live = live - 1 WHERE bucket_id = OLD.bucket_id;
  END IF;
  IF NEW.deleted_time IS NULL THEN
    INSERT INTO bucket_exam_counts (bucket_id, live) VALUES (NEW.bucket_id, 1)
      ON CONFLICT (bucket_id) DO UPDATE SET live = bucket_exam_counts.live + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "exams_count_update" AFTER UPDATE OF "deleted_time", "bucket_id" ON "exams"
  FOR EACH ROW
  WHEN (OLD.deleted_time IS DISTINCT FROM NEW.deleted_time OR OLD.bucket_id IS DISTINCT FROM NEW.bucket_id)
  EXECUTE FUNCTION exam_counts_move();
