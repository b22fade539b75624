-- The front desk's statistics from the rollups (issue 26): stat_daily kinds rg and rm (registrations
-- by the hospital day they were made, under created_by) and ar (arrivals by the day of arrived_at,
-- under arrived_by); see stat-desk-rollup.store.ts. Writes mark the (organization, day) pairs they
-- touch in stat_dirty as the exams' and reports' triggers do (migrations 0043, 0046): the lock alone
-- (DO UPDATE ... WHERE false), in (organization, day) order.
CREATE FUNCTION "stat_registrations_dirty"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A registration counts on the day it was made, in its organization, under its creator.
  INSERT INTO stat_dirty (bucket_id, day)
    SELECT DISTINCT b, d FROM (
      SELECT OLD.bucket_id AS b, stat_day(OLD.created) AS d WHERE TG_OP <> 'INSERT'
      UNION ALL SELECT NEW.bucket_id, stat_day(NEW.created) WHERE TG_OP <> 'DELETE'
    ) m WHERE b IS NOT NULL AND d IS NOT NULL ORDER BY b, d
    ON CONFLICT (bucket_id, day) DO UPDATE SET gen = stat_dirty.gen + 1 WHERE false;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "registrations_stat_insert" AFTER INSERT ON "registrations"
  FOR EACH ROW EXECUTE FUNCTION stat_registrations_dirty();
--> statement-breakpoint
CREATE TRIGGER "registrations_stat_delete" AFTER DELETE ON "registrations"
  FOR EACH ROW EXECUTE FUNCTION stat_registrations_dirty();
--> statement-breakpoint
CREATE TRIGGER "registrations_stat_update" AFTER UPDATE OF bucket_id, created, created_by ON "registrations"
  FOR EACH ROW WHEN (
    OLD.bucket_id IS DISTINCT FROM NEW.bucket_id OR OLD.created IS DISTINCT FROM NEW.created
    OR OLD.created_by IS DISTINCT FROM NEW.created_by
  ) EXECUTE FUNCTION stat_registrations_dirty();
--> statement-breakpoint
CREATE FUNCTION "stat_scheduled_exams_dirty"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A scheduled exam counts in its registration's rows (old and new registration: a move) on the
  -- day the registration was made, and as an arrival on the day of arrived_at (old and new: an
  -- arrival undone or set again). A registration deleted marks its own day (its exams' cascade no
  -- longer finds it).
  INSERT INTO stat_dirty (bucket_id, day)
    SELECT DISTINCT b, d FROM (
      SELECT r.bucket_id AS b, stat_day(r.created) AS d FROM registrations r
        WHERE TG_OP <> 'INSERT' AND r.id = OLD.registration_id
      UNION ALL SELECT r.bucket_id, stat_day(r.created) FROM registrations r
        WHERE TG_OP <> 'DELETE' AND r.id = NEW.registration_id
      UNION ALL SELECT OLD.bucket_id, stat_day(OLD.arrived_at) WHERE TG_OP <> 'INSERT'
      UNION ALL SELECT NEW.bucket_id, stat_day(NEW.arrived_at) WHERE TG_OP <> 'DELETE'
    ) m WHERE b IS NOT NULL AND d IS NOT NULL ORDER BY b, d
    ON CONFLICT (bucket_id, day) DO UPDATE SET gen = stat_dirty.gen + 1 WHERE false;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "scheduled_exams_stat_insert" AFTER INSERT ON "scheduled_exams"
  FOR EACH ROW EXECUTE FUNCTION stat_scheduled_exams_dirty();
--> statement-breakpoint
CREATE TRIGGER "scheduled_exams_stat_delete" AFTER DELETE ON "scheduled_exams"
  FOR EACH ROW EXECUTE FUNCTION stat_scheduled_exams_dirty();
--> statement-breakpoint
CREATE TRIGGER "scheduled_exams_stat_update" AFTER UPDATE OF registration_id, bucket_id, modality, arrived_at, arrived_by ON "scheduled_exams"
  FOR EACH ROW WHEN (
    OLD.registration_id IS DISTINCT FROM NEW.registration_id OR OLD.bucket_id IS DISTINCT FROM NEW.bucket_id
    OR OLD.modality IS DISTINCT FROM NEW.modality OR OLD.arrived_at IS DISTINCT FROM NEW.arrived_at
    OR OLD.arrived_by IS DISTINCT FROM NEW.arrived_by
  ) EXECUTE FUNCTION stat_scheduled_exams_dirty();
--> statement-breakpoint
-- What exists already is counted at the first read of each organization and day.
INSERT INTO "stat_dirty" ("bucket_id", "day")
  SELECT "bucket_id", stat_day("created") FROM "registrations"
  UNION
  SELECT "bucket_id", stat_day("arrived_at") FROM "scheduled_exams" WHERE "arrived_at" IS NOT NULL
  ON CONFLICT ("bucket_id", "day") DO NOTHING;
