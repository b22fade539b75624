CREATE TABLE "stat_daily" (
	"bucket_id" text NOT NULL,
	"kind" text NOT NULL,
	"day" date NOT NULL,
	"k1" text DEFAULT '' NOT NULL,
	"k2" text DEFAULT '' NOT NULL,
	"k3" text DEFAULT '' NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	"s" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "stat_daily_bucket_id_kind_day_k1_k2_k3_pk" PRIMARY KEY("bucket_id","kind","day","k1","k2","k3")
);
--> statement-breakpoint
CREATE TABLE "stat_dirty" (
	"bucket_id" text NOT NULL,
	"day" date NOT NULL,
	"gen" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stat_dirty_bucket_id_day_pk" PRIMARY KEY("bucket_id","day")
);
--> statement-breakpoint
ALTER TABLE "stat_daily" ADD CONSTRAINT "stat_daily_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reports_bucket_approved_idx" ON "reports" USING btree ("bucket_id","approved_at") WHERE "reports"."approved_at" is not null;--> statement-breakpoint
CREATE FUNCTION "stat_day"(t timestamptz) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  -- The hospital day (UTC+8) of an instant: contracts HOSPITAL_UTC_OFFSET_MINUTES, stat-periods.store.ts hospitalDaySql.
  SELECT ((t AT TIME ZONE 'UTC') + interval '480 minutes')::date
$$;
--> statement-breakpoint
CREATE FUNCTION "stat_exams_dirty"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The statistics' rollups (issue 26): an exam counts on the day it was received, and its
  -- modality, body part and body-part count and whether it is live count in its report's rows on
  -- the report's approval day. Marks take the (organization, day) row's lock (DO UPDATE, not DO
  -- NOTHING), so a refresh that deletes the mark waits for this transaction and then sees its
  -- change; they are taken in (organization, day) order, as the refresh takes them.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO stat_dirty (bucket_id, day) VALUES (NEW.bucket_id, stat_day(NEW.created))
      ON CONFLICT (bucket_id, day) DO UPDATE SET gen = stat_dirty.gen + 1;
    RETURN NULL;
  END IF;
  INSERT INTO stat_dirty (bucket_id, day)
    SELECT DISTINCT b, d FROM (
      SELECT OLD.bucket_id AS b, stat_day(OLD.created) AS d
      UNION ALL SELECT NEW.bucket_id, stat_day(NEW.created) WHERE TG_OP = 'UPDATE'
      UNION ALL SELECT r.bucket_id, stat_day(r.approved_at) FROM reports r
        WHERE r.id = OLD.id AND r.approved_at IS NOT NULL
    ) m WHERE b IS NOT NULL AND d IS NOT NULL ORDER BY b, d
    ON CONFLICT (bucket_id, day) DO UPDATE SET gen = stat_dirty.gen + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "exams_stat_insert" AFTER INSERT ON "exams"
  FOR EACH ROW EXECUTE FUNCTION stat_exams_dirty();
--> statement-breakpoint
CREATE TRIGGER "exams_stat_delete" AFTER DELETE ON "exams"
  FOR EACH ROW EXECUTE FUNCTION stat_exams_dirty();
--> statement-breakpoint
CREATE TRIGGER "exams_stat_update" AFTER UPDATE OF bucket_id, modality, body_part, body_part_count, created, deleted_time ON "exams"
  FOR EACH ROW WHEN (
    OLD.bucket_id IS DISTINCT FROM NEW.bucket_id OR OLD.modality IS DISTINCT FROM NEW.modality
    OR OLD.body_part IS DISTINCT FROM NEW.body_part OR OLD.body_part_count IS DISTINCT FROM NEW.body_part_count
    OR OLD.created IS DISTINCT FROM NEW.created OR OLD.deleted_time IS DISTINCT FROM NEW.deleted_time
  ) EXECUTE FUNCTION stat_exams_dirty();
--> statement-breakpoint
CREATE FUNCTION "stat_reports_dirty"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bpc_changed boolean := TG_OP <> 'UPDATE'
    OR (OLD.content -> 'bodyPartCount') IS DISTINCT FROM (NEW.content -> 'bodyPartCount');
BEGIN
  -- A report counts on its approval day (old and new: a recall, a reassignment, a new approval);
  -- its body-part count also counts in its exam's row on the day the exam was received.
  INSERT INTO stat_dirty (bucket_id, day)
    SELECT DISTINCT b, d FROM (
      SELECT OLD.bucket_id AS b, stat_day(OLD.approved_at) AS d WHERE TG_OP <> 'INSERT'
      UNION ALL SELECT NEW.bucket_id, stat_day(NEW.approved_at) WHERE TG_OP <> 'DELETE'
      UNION ALL SELECT e.bucket_id, stat_day(e.created) FROM exams e
        WHERE bpc_changed AND e.id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END)
    ) m WHERE b IS NOT NULL AND d IS NOT NULL ORDER BY b, d
    ON CONFLICT (bucket_id, day) DO UPDATE SET gen = stat_dirty.gen + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "reports_stat_insert" AFTER INSERT ON "reports"
  FOR EACH ROW EXECUTE FUNCTION stat_reports_dirty();
--> statement-breakpoint
CREATE TRIGGER "reports_stat_delete" AFTER DELETE ON "reports"
  FOR EACH ROW EXECUTE FUNCTION stat_reports_dirty();
--> statement-breakpoint
CREATE TRIGGER "reports_stat_update" AFTER UPDATE OF bucket_id, status, approved_at, creator_id, approver_id, note_taker_id, content ON "reports"
  FOR EACH ROW WHEN (
    OLD.bucket_id IS DISTINCT FROM NEW.bucket_id OR OLD.status IS DISTINCT FROM NEW.status
    OR OLD.approved_at IS DISTINCT FROM NEW.approved_at OR OLD.creator_id IS DISTINCT FROM NEW.creator_id
    OR OLD.approver_id IS DISTINCT FROM NEW.approver_id OR OLD.note_taker_id IS DISTINCT FROM NEW.note_taker_id
    OR (OLD.content -> 'positive') IS DISTINCT FROM (NEW.content -> 'positive')
    OR (OLD.content -> 'bodyPartCount') IS DISTINCT FROM (NEW.content -> 'bodyPartCount')
  ) EXECUTE FUNCTION stat_reports_dirty();
--> statement-breakpoint
-- What exists already is counted at the first read of each organization and day.
INSERT INTO "stat_dirty" ("bucket_id", "day")
  SELECT "bucket_id", stat_day("created") FROM "exams"
  UNION
  SELECT "bucket_id", stat_day("approved_at") FROM "reports" WHERE "approved_at" IS NOT NULL;
