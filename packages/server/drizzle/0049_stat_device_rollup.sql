-- Device workload from the rollups (issue 26): stat_daily's ex rows (live exams by the day they were
-- received) now carry the device of the exam's first scheduled exam in k1 ('' when it came
-- unscheduled or its scheduled exam names no device); the device's name and room are read at query
-- time. A scheduled exam's binding (exam_id), device and registration time decide which device an
-- exam counts under, so a change of any of them marks the bound exams' days (old and new exam).
CREATE OR REPLACE FUNCTION "stat_scheduled_exams_dirty"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A scheduled exam counts in its registration's rows (old and new registration: a move) on the
  -- day the registration was made, as an arrival on the day of arrived_at (old and new: an arrival
  -- undone or set again), and as the device of its bound exam on the day that exam was received
  -- (old and new exam: a binding made, moved or undone). A registration deleted marks its own day
  -- (its exams' cascade no longer finds it); an exam deleted marks its own (migration 0043).
  INSERT INTO stat_dirty (bucket_id, day)
    SELECT DISTINCT b, d FROM (
      SELECT r.bucket_id AS b, stat_day(r.created) AS d FROM registrations r
        WHERE TG_OP <> 'INSERT' AND r.id = OLD.registration_id
      UNION ALL SELECT r.bucket_id, stat_day(r.created) FROM registrations r
        WHERE TG_OP <> 'DELETE' AND r.id = NEW.registration_id
      UNION ALL SELECT OLD.bucket_id, stat_day(OLD.arrived_at) WHERE TG_OP <> 'INSERT'
      UNION ALL SELECT NEW.bucket_id, stat_day(NEW.arrived_at) WHERE TG_OP <> 'DELETE'
      UNION ALL SELECT e.bucket_id, stat_day(e.created) FROM exams e
        WHERE TG_OP <> 'INSERT' AND e.id = OLD.exam_id
      UNION ALL SELECT e.bucket_id, stat_day(e.created) FROM exams e
        WHERE TG_OP <> 'DELETE' AND e.id = NEW.exam_id
    ) m WHERE b IS NOT NULL AND d IS NOT NULL ORDER BY b, d
    ON CONFLICT (bucket_id, day) DO UPDATE SET gen = stat_dirty.gen + 1 WHERE false;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER "scheduled_exams_stat_update" ON "scheduled_exams";
--> statement-breakpoint
CREATE TRIGGER "scheduled_exams_stat_update"
  AFTER UPDATE OF registration_id, bucket_id, modality, arrived_at, arrived_by, exam_id, device_id, created ON "scheduled_exams"
  FOR EACH ROW WHEN (
    OLD.registration_id IS DISTINCT FROM NEW.registration_id OR OLD.bucket_id IS DISTINCT FROM NEW.bucket_id
    OR OLD.modality IS DISTINCT FROM NEW.modality OR OLD.arrived_at IS DISTINCT FROM NEW.arrived_at
    OR OLD.arrived_by IS DISTINCT FROM NEW.arrived_by OR OLD.exam_id IS DISTINCT FROM NEW.exam_id
    OR OLD.device_id IS DISTINCT FROM NEW.device_id OR OLD.created IS DISTINCT FROM NEW.created
  ) EXECUTE FUNCTION stat_scheduled_exams_dirty();
--> statement-breakpoint
-- The days of exams already bound to a device are recounted (in the background, or at the first read).
INSERT INTO "stat_dirty" ("bucket_id", "day")
  SELECT DISTINCT e."bucket_id", stat_day(e."created") FROM "scheduled_exams" s
    JOIN "exams" e ON e."id" = s."exam_id"
    WHERE s."device_id" IS NOT NULL
  ON CONFLICT ("bucket_id", "day") DO NOTHING;
