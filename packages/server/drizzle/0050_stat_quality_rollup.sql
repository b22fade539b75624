CREATE INDEX "report_quality_bucket_updated_idx" ON "report_quality" USING btree ("bucket_id","updated_at");--> statement-breakpoint
-- Quality from the rollups (issue 26): stat_daily kinds qg (grades by the hospital day of their last
-- change, updated_at, under the report's writer, the exam's modality and the level) and qi (the
-- unsatisfactory items named, per item, modality and level); see stat-quality-rollup.store.ts.
-- A grade's write marks its old and new day; an exam's or a report's write marks its grade's day
-- too (the exam's modality and liveness, the report's writer count there).
CREATE FUNCTION "stat_report_quality_dirty"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stat_dirty (bucket_id, day)
    SELECT DISTINCT b, d FROM (
      SELECT OLD.bucket_id AS b, stat_day(OLD.updated_at) AS d WHERE TG_OP <> 'INSERT'
      UNION ALL SELECT NEW.bucket_id, stat_day(NEW.updated_at) WHERE TG_OP <> 'DELETE'
    ) m WHERE b IS NOT NULL AND d IS NOT NULL ORDER BY b, d
    ON CONFLICT (bucket_id, day) DO UPDATE SET gen = stat_dirty.gen + 1 WHERE false;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "report_quality_stat_insert" AFTER INSERT ON "report_quality"
  FOR EACH ROW EXECUTE FUNCTION stat_report_quality_dirty();
--> statement-breakpoint
CREATE TRIGGER "report_quality_stat_delete" AFTER DELETE ON "report_quality"
  FOR EACH ROW EXECUTE FUNCTION stat_report_quality_dirty();
--> statement-breakpoint
CREATE TRIGGER "report_quality_stat_update" AFTER UPDATE OF report_id, bucket_id, level, unsatisfactory_items, updated_at ON "report_quality"
  FOR EACH ROW WHEN (
    OLD.report_id IS DISTINCT FROM NEW.report_id OR OLD.bucket_id IS DISTINCT FROM NEW.bucket_id
    OR OLD.level IS DISTINCT FROM NEW.level OR OLD.unsatisfactory_items IS DISTINCT FROM NEW.unsatisfactory_items
    OR OLD.updated_at IS DISTINCT FROM NEW.updated_at
  ) EXECUTE FUNCTION stat_report_quality_dirty();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "stat_exams_dirty"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The statistics' rollups (issue 26): an exam counts on the day it was received, and its
  -- modality, body part and body-part count and whether it is live count in its report's rows on
  -- the report's approval day and in its grade's rows on the grade's day. Marks take the
  -- (organization, day) row's lock (DO UPDATE ... WHERE false, not DO NOTHING), so a refresh that
  -- deletes the mark waits for this transaction and then sees its change; they are taken in
  -- (organization, day) order, as the refresh takes them.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO stat_dirty (bucket_id, day) VALUES (NEW.bucket_id, stat_day(NEW.created))
      ON CONFLICT (bucket_id, day) DO UPDATE SET gen = stat_dirty.gen + 1 WHERE false;
    RETURN NULL;
  END IF;
  INSERT INTO stat_dirty (bucket_id, day)
    SELECT DISTINCT b, d FROM (
      SELECT OLD.bucket_id AS b, stat_day(OLD.created) AS d
      UNION ALL SELECT NEW.bucket_id, stat_day(NEW.created) WHERE TG_OP = 'UPDATE'
      UNION ALL SELECT r.bucket_id, stat_day(r.approved_at) FROM reports r
        WHERE r.id = OLD.id AND r.approved_at IS NOT NULL
      UNION ALL SELECT q.bucket_id, stat_day(q.updated_at) FROM report_quality q WHERE q.report_id = OLD.id
    ) m WHERE b IS NOT NULL AND d IS NOT NULL ORDER BY b, d
    ON CONFLICT (bucket_id, day) DO UPDATE SET gen = stat_dirty.gen + 1 WHERE false;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "stat_reports_dirty"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bpc_changed boolean := TG_OP <> 'UPDATE'
    OR (OLD.content -> 'bodyPartCount') IS DISTINCT FROM (NEW.content -> 'bodyPartCount');
  writer_changed boolean := TG_OP <> 'UPDATE' OR OLD.creator_id IS DISTINCT FROM NEW.creator_id;
BEGIN
  -- A report counts on its approval day (old and new: a recall, a reassignment, a new approval);
  -- its body-part count also counts in its exam's row on the day the exam was received, and its
  -- writer in its grade's rows on the grade's day.
  INSERT INTO stat_dirty (bucket_id, day)
    SELECT DISTINCT b, d FROM (
      SELECT OLD.bucket_id AS b, stat_day(OLD.approved_at) AS d WHERE TG_OP <> 'INSERT'
      UNION ALL SELECT NEW.bucket_id, stat_day(NEW.approved_at) WHERE TG_OP <> 'DELETE'
      UNION ALL SELECT e.bucket_id, stat_day(e.created) FROM exams e
        WHERE bpc_changed AND e.id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END)
      UNION ALL SELECT q.bucket_id, stat_day(q.updated_at) FROM report_quality q
        WHERE writer_changed AND q.report_id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END)
    ) m WHERE b IS NOT NULL AND d IS NOT NULL ORDER BY b, d
    ON CONFLICT (bucket_id, day) DO UPDATE SET gen = stat_dirty.gen + 1 WHERE false;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- What exists already is counted in the background, or at the first read.
INSERT INTO "stat_dirty" ("bucket_id", "day")
  SELECT DISTINCT "bucket_id", stat_day("updated_at") FROM "report_quality"
  ON CONFLICT ("bucket_id", "day") DO NOTHING;
