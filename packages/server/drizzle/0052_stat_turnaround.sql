CREATE TABLE "stat_turnaround" (
	"bucket_id" text NOT NULL,
	"span" text NOT NULL,
	"day" date NOT NULL,
	"dim" text NOT NULL,
	"key" text NOT NULL,
	"minutes" integer[] NOT NULL,
	"counts" integer[] NOT NULL,
	CONSTRAINT "stat_turnaround_bucket_id_span_day_dim_key_pk" PRIMARY KEY("bucket_id","span","day","dim","key")
);
--> statement-breakpoint
ALTER TABLE "stat_turnaround" ADD CONSTRAINT "stat_turnaround_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- statistics/turnaround (issue 26): stat_turnaround's histograms of registration to approval are
-- rebuilt for the (organization, approval day) pairs stat_dirty names; a change of an exam's steps,
-- organization, modality, room, writer or liveness marks the approval days before and after it.
CREATE FUNCTION "stat_exam_steps_dirty"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO stat_dirty (bucket_id, day) VALUES (NEW.bucket_id, stat_day(NEW.approved_at))
      ON CONFLICT (bucket_id, day) DO UPDATE SET gen = stat_dirty.gen + 1 WHERE false;
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    INSERT INTO stat_dirty (bucket_id, day) VALUES (OLD.bucket_id, stat_day(OLD.approved_at))
      ON CONFLICT (bucket_id, day) DO UPDATE SET gen = stat_dirty.gen + 1 WHERE false;
    RETURN NULL;
  END IF;
  INSERT INTO stat_dirty (bucket_id, day)
    SELECT DISTINCT b, d FROM (
      SELECT OLD.bucket_id AS b, stat_day(OLD.approved_at) AS d
      UNION ALL SELECT NEW.bucket_id, stat_day(NEW.approved_at)
    ) m WHERE d IS NOT NULL ORDER BY b, d
    ON CONFLICT (bucket_id, day) DO UPDATE SET gen = stat_dirty.gen + 1 WHERE false;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "exam_steps_stat_insert" AFTER INSERT ON "exam_steps"
  FOR EACH ROW WHEN (NEW.approved_at IS NOT NULL) EXECUTE FUNCTION stat_exam_steps_dirty();
--> statement-breakpoint
CREATE TRIGGER "exam_steps_stat_delete" AFTER DELETE ON "exam_steps"
  FOR EACH ROW WHEN (OLD.approved_at IS NOT NULL) EXECUTE FUNCTION stat_exam_steps_dirty();
--> statement-breakpoint
CREATE TRIGGER "exam_steps_stat_update" AFTER UPDATE OF bucket_id, modality, room, doctor_id, live, registered_at, approved_at ON "exam_steps"
  FOR EACH ROW WHEN (
    (OLD.approved_at IS NOT NULL OR NEW.approved_at IS NOT NULL) AND (
      OLD.bucket_id IS DISTINCT FROM NEW.bucket_id OR OLD.modality IS DISTINCT FROM NEW.modality
      OR OLD.room IS DISTINCT FROM NEW.room OR OLD.doctor_id IS DISTINCT FROM NEW.doctor_id
      OR OLD.live IS DISTINCT FROM NEW.live OR OLD.registered_at IS DISTINCT FROM NEW.registered_at
      OR OLD.approved_at IS DISTINCT FROM NEW.approved_at)
  ) EXECUTE FUNCTION stat_exam_steps_dirty();
--> statement-breakpoint
-- The approval days already recorded are recounted by the next refresh (or the background recount).
INSERT INTO stat_dirty (bucket_id, day)
  SELECT DISTINCT bucket_id, stat_day(approved_at) FROM exam_steps WHERE approved_at IS NOT NULL
  ON CONFLICT (bucket_id, day) DO NOTHING;
