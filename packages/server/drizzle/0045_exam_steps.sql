CREATE TABLE "exam_steps" (
	"id" text PRIMARY KEY NOT NULL,
	"scheduled_exam_id" text,
	"exam_id" text,
	"bucket_id" text NOT NULL,
	"modality" text DEFAULT '' NOT NULL,
	"room" text DEFAULT '' NOT NULL,
	"doctor_id" text,
	"live" boolean DEFAULT true NOT NULL,
	"registered_at" timestamp with time zone,
	"arrived_at" timestamp with time zone,
	"called_at" timestamp with time zone,
	"performed_at" timestamp with time zone,
	"first_saved_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"approved_at" timestamp with time zone,
	"printed_at" timestamp with time zone,
	"published_at" timestamp with time zone,
	"share_viewed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "first_saved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_share_links" ADD COLUMN "first_viewed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "exam_steps_scheduled_idx" ON "exam_steps" USING btree ("scheduled_exam_id") WHERE "exam_steps"."scheduled_exam_id" is not null;--> statement-breakpoint
CREATE INDEX "exam_steps_exam_idx" ON "exam_steps" USING btree ("exam_id") WHERE "exam_steps"."exam_id" is not null;--> statement-breakpoint
CREATE INDEX "exam_steps_bucket_approved_idx" ON "exam_steps" USING btree ("bucket_id","approved_at") WHERE "exam_steps"."approved_at" is not null;--> statement-breakpoint
CREATE INDEX "exam_steps_bucket_performed_idx" ON "exam_steps" USING btree ("bucket_id","performed_at") WHERE "exam_steps"."performed_at" is not null;--> statement-breakpoint
CREATE INDEX "exam_steps_bucket_published_idx" ON "exam_steps" USING btree ("bucket_id","published_at") WHERE "exam_steps"."published_at" is not null;--> statement-breakpoint
CREATE INDEX "exam_steps_bucket_registered_idx" ON "exam_steps" USING btree ("bucket_id","registered_at");--> statement-breakpoint
CREATE FUNCTION "first_saved_keep"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Turnaround (issue 26): saved_at is a report's last save; first_saved_at keeps its first.
  IF TG_OP = 'UPDATE' THEN
    NEW.first_saved_at := coalesce(OLD.first_saved_at, NEW.first_saved_at, NEW.saved_at);
  ELSE
    NEW.first_saved_at := coalesce(NEW.first_saved_at, NEW.saved_at);
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "reports_first_saved" BEFORE INSERT OR UPDATE OF saved_at, first_saved_at ON "reports"
  FOR EACH ROW EXECUTE FUNCTION first_saved_keep();
--> statement-breakpoint
CREATE FUNCTION "first_viewed_keep"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Turnaround (issue 26): last_viewed_at is a share link's last view; first_viewed_at keeps its first.
  IF TG_OP = 'UPDATE' THEN
    NEW.first_viewed_at := coalesce(OLD.first_viewed_at, NEW.first_viewed_at, NEW.last_viewed_at);
  ELSE
    NEW.first_viewed_at := coalesce(NEW.first_viewed_at, NEW.last_viewed_at);
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "report_share_links_first_viewed" BEFORE INSERT OR UPDATE OF last_viewed_at, first_viewed_at ON "report_share_links"
  FOR EACH ROW EXECUTE FUNCTION first_viewed_keep();
--> statement-breakpoint
CREATE FUNCTION "exam_steps_put"(p_se text, p_exam text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- The exam_steps row of scheduled exam p_se (with the exam it links), or of exam p_exam when
  -- p_se is null, recomputed from its sources by primary keys and indexes (schema-turnaround.ts).
  INSERT INTO exam_steps AS t (id, scheduled_exam_id, exam_id, bucket_id, modality, room, doctor_id, live,
      registered_at, arrived_at, called_at, performed_at, first_saved_at, submitted_at, approved_at,
      printed_at, published_at, share_viewed_at)
  SELECT coalesce(s.id, x.id), s.id, x.id, coalesce(s.bucket_id, x.bucket_id),
      coalesce(nullif(split_part(x.modality, E'\\', 1), ''), s.modality, ''),
      coalesce(nullif(d.room, ''), q.room, ''),
      r.creator_id,
      coalesce(s.status, '') <> 'Cancelled' AND x.deleted_time IS NULL,
      s.created, s.arrived_at, q.called_at, coalesce(s.performed_at, x.created),
      r.first_saved_at, r.submitted_at, r.approved_at, r.print_approved_at, o.reported_at, v.viewed_at
  FROM (SELECT 1) one
  LEFT JOIN scheduled_exams s ON s.id = p_se
  LEFT JOIN exams x ON x.id = (CASE WHEN p_se IS NULL THEN p_exam ELSE s.exam_id END)
  LEFT JOIN modalities d ON d.id = s.device_id
  LEFT JOIN LATERAL (
    SELECT min(qe.called_at) AS called_at, max(qe.room) FILTER (WHERE qe.room <> '') AS room
    FROM queue_exams qe WHERE qe.scheduled_exam_id = s.id AND qe.status <> 'moved'
  ) q ON true
  LEFT JOIN reports r ON r.id = x.id
  LEFT JOIN LATERAL (
    SELECT min(od.reported_at) AS reported_at FROM orders od
    WHERE od.exam_id = x.id AND od.status <> 'cancelled' AND od.type <> 'consultation'
  ) o ON true
  LEFT JOIN LATERAL (
    SELECT min(l.first_viewed_at) AS viewed_at FROM report_share_links l WHERE l.report_id = x.id
  ) v ON true
  WHERE s.id IS NOT NULL OR x.id IS NOT NULL
  ON CONFLICT (id) DO UPDATE SET scheduled_exam_id = EXCLUDED.scheduled_exam_id, exam_id = EXCLUDED.exam_id,
    bucket_id = EXCLUDED.bucket_id, modality = EXCLUDED.modality, room = EXCLUDED.room,
    doctor_id = EXCLUDED.doctor_id, live = EXCLUDED.live, registered_at = EXCLUDED.registered_at,
    arrived_at = EXCLUDED.arrived_at, called_at = EXCLUDED.called_at, performed_at = EXCLUDED.performed_at,
    first_saved_at = EXCLUDED.first_saved_at, submitted_at = EXCLUDED.submitted_at,
    approved_at = EXCLUDED.approved_at, printed_at = EXCLUDED.printed_at,
    published_at = EXCLUDED.published_at, share_viewed_at = EXCLUDED.share_viewed_at;
END $$;
--> statement-breakpoint
CREATE FUNCTION "exam_steps_sync_scheduled"(p_se text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_se IS NULL THEN RETURN; END IF;
  IF EXISTS (SELECT 1 FROM scheduled_exams WHERE id = p_se) THEN
    PERFORM exam_steps_put(p_se, NULL);
  ELSE
    DELETE FROM exam_steps WHERE id = p_se;
  END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION "exam_steps_sync_exam"(p_exam text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- An exam a scheduled exam links is in that one's row; an exam none links has a row of its own.
  IF p_exam IS NULL THEN RETURN; END IF;
  IF EXISTS (SELECT 1 FROM scheduled_exams WHERE exam_id = p_exam) THEN
    DELETE FROM exam_steps WHERE id = p_exam;
    PERFORM exam_steps_put(s.id, NULL) FROM (SELECT id FROM scheduled_exams WHERE exam_id = p_exam ORDER BY id) s;
  ELSIF EXISTS (SELECT 1 FROM exams WHERE id = p_exam) THEN
    PERFORM exam_steps_put(NULL, p_exam);
  ELSE
    DELETE FROM exam_steps WHERE id = p_exam;
  END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION "exam_steps_scheduled"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM exam_steps_sync_scheduled(CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
  IF TG_OP = 'INSERT' THEN
    PERFORM exam_steps_sync_exam(NEW.exam_id);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM exam_steps_sync_exam(OLD.exam_id);
  ELSIF OLD.exam_id IS DISTINCT FROM NEW.exam_id THEN
    PERFORM exam_steps_sync_exam(OLD.exam_id);
    PERFORM exam_steps_sync_exam(NEW.exam_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "scheduled_exams_steps_insert" AFTER INSERT ON "scheduled_exams"
  FOR EACH ROW EXECUTE FUNCTION exam_steps_scheduled();
--> statement-breakpoint
CREATE TRIGGER "scheduled_exams_steps_delete" AFTER DELETE ON "scheduled_exams"
  FOR EACH ROW EXECUTE FUNCTION exam_steps_scheduled();
--> statement-breakpoint
CREATE TRIGGER "scheduled_exams_steps_update" AFTER UPDATE OF exam_id, arrived_at, performed_at, device_id, status, bucket_id, modality, created ON "scheduled_exams"
  FOR EACH ROW WHEN (
    OLD.exam_id IS DISTINCT FROM NEW.exam_id OR OLD.arrived_at IS DISTINCT FROM NEW.arrived_at
    OR OLD.performed_at IS DISTINCT FROM NEW.performed_at OR OLD.device_id IS DISTINCT FROM NEW.device_id
    OR (OLD.status = 'Cancelled') <> (NEW.status = 'Cancelled') OR OLD.bucket_id IS DISTINCT FROM NEW.bucket_id
    OR OLD.modality IS DISTINCT FROM NEW.modality OR OLD.created IS DISTINCT FROM NEW.created
  ) EXECUTE FUNCTION exam_steps_scheduled();
--> statement-breakpoint
CREATE FUNCTION "exam_steps_exams"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM exam_steps_sync_exam(CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "exams_steps_insert" AFTER INSERT ON "exams"
  FOR EACH ROW EXECUTE FUNCTION exam_steps_exams();
--> statement-breakpoint
CREATE TRIGGER "exams_steps_delete" AFTER DELETE ON "exams"
  FOR EACH ROW EXECUTE FUNCTION exam_steps_exams();
--> statement-breakpoint
CREATE TRIGGER "exams_steps_update" AFTER UPDATE OF bucket_id, modality, created, deleted_time ON "exams"
  FOR EACH ROW WHEN (
    OLD.bucket_id IS DISTINCT FROM NEW.bucket_id OR OLD.modality IS DISTINCT FROM NEW.modality
    OR OLD.created IS DISTINCT FROM NEW.created OR OLD.deleted_time IS DISTINCT FROM NEW.deleted_time
  ) EXECUTE FUNCTION exam_steps_exams();
--> statement-breakpoint
CREATE FUNCTION "exam_steps_queue"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM exam_steps_sync_scheduled(OLD.scheduled_exam_id); END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR OLD.scheduled_exam_id IS DISTINCT FROM NEW.scheduled_exam_id) THEN
    PERFORM exam_steps_sync_scheduled(NEW.scheduled_exam_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "queue_exams_steps_insert" AFTER INSERT ON "queue_exams"
  FOR EACH ROW EXECUTE FUNCTION exam_steps_queue();
--> statement-breakpoint
CREATE TRIGGER "queue_exams_steps_delete" AFTER DELETE ON "queue_exams"
  FOR EACH ROW EXECUTE FUNCTION exam_steps_queue();
--> statement-breakpoint
CREATE TRIGGER "queue_exams_steps_update" AFTER UPDATE OF called_at, room, status, scheduled_exam_id ON "queue_exams"
  FOR EACH ROW WHEN (
    OLD.called_at IS DISTINCT FROM NEW.called_at OR OLD.room IS DISTINCT FROM NEW.room
    OR (OLD.status = 'moved') <> (NEW.status = 'moved') OR OLD.scheduled_exam_id IS DISTINCT FROM NEW.scheduled_exam_id
  ) EXECUTE FUNCTION exam_steps_queue();
--> statement-breakpoint
CREATE FUNCTION "exam_steps_reports"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM exam_steps_sync_exam(CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "reports_steps_insert" AFTER INSERT ON "reports"
  FOR EACH ROW EXECUTE FUNCTION exam_steps_reports();
--> statement-breakpoint
CREATE TRIGGER "reports_steps_delete" AFTER DELETE ON "reports"
  FOR EACH ROW EXECUTE FUNCTION exam_steps_reports();
--> statement-breakpoint
CREATE TRIGGER "reports_steps_update" AFTER UPDATE OF saved_at, first_saved_at, submitted_at, approved_at, print_approved_at, creator_id ON "reports"
  FOR EACH ROW WHEN (
    OLD.first_saved_at IS DISTINCT FROM NEW.first_saved_at OR OLD.submitted_at IS DISTINCT FROM NEW.submitted_at
    OR OLD.approved_at IS DISTINCT FROM NEW.approved_at OR OLD.print_approved_at IS DISTINCT FROM NEW.print_approved_at
    OR OLD.creator_id IS DISTINCT FROM NEW.creator_id
  ) EXECUTE FUNCTION exam_steps_reports();
--> statement-breakpoint
CREATE FUNCTION "exam_steps_orders"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM exam_steps_sync_exam(OLD.exam_id); END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR OLD.exam_id IS DISTINCT FROM NEW.exam_id) THEN
    PERFORM exam_steps_sync_exam(NEW.exam_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "orders_steps_insert" AFTER INSERT ON "orders"
  FOR EACH ROW WHEN (NEW.reported_at IS NOT NULL) EXECUTE FUNCTION exam_steps_orders();
--> statement-breakpoint
CREATE TRIGGER "orders_steps_delete" AFTER DELETE ON "orders"
  FOR EACH ROW WHEN (OLD.reported_at IS NOT NULL) EXECUTE FUNCTION exam_steps_orders();
--> statement-breakpoint
CREATE TRIGGER "orders_steps_update" AFTER UPDATE OF reported_at, status, type, exam_id ON "orders"
  FOR EACH ROW WHEN (
    OLD.reported_at IS DISTINCT FROM NEW.reported_at OR OLD.exam_id IS DISTINCT FROM NEW.exam_id
    OR ((OLD.reported_at IS NOT NULL OR NEW.reported_at IS NOT NULL)
      AND (OLD.status IS DISTINCT FROM NEW.status OR OLD.type IS DISTINCT FROM NEW.type))
  ) EXECUTE FUNCTION exam_steps_orders();
--> statement-breakpoint
CREATE FUNCTION "exam_steps_share_links"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM exam_steps_sync_exam(OLD.report_id); END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR OLD.report_id IS DISTINCT FROM NEW.report_id) THEN
    PERFORM exam_steps_sync_exam(NEW.report_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "report_share_links_steps_insert" AFTER INSERT ON "report_share_links"
  FOR EACH ROW WHEN (NEW.first_viewed_at IS NOT NULL) EXECUTE FUNCTION exam_steps_share_links();
--> statement-breakpoint
CREATE TRIGGER "report_share_links_steps_delete" AFTER DELETE ON "report_share_links"
  FOR EACH ROW WHEN (OLD.first_viewed_at IS NOT NULL) EXECUTE FUNCTION exam_steps_share_links();
--> statement-breakpoint
CREATE TRIGGER "report_share_links_steps_update" AFTER UPDATE OF last_viewed_at, first_viewed_at, report_id ON "report_share_links"
  FOR EACH ROW WHEN (
    OLD.first_viewed_at IS DISTINCT FROM NEW.first_viewed_at OR OLD.report_id IS DISTINCT FROM NEW.report_id
  ) EXECUTE FUNCTION exam_steps_share_links();
--> statement-breakpoint
-- What exists already: first saves and views as well as they are known, then every row.
UPDATE "reports" SET "first_saved_at" = "saved_at" WHERE "saved_at" IS NOT NULL AND "first_saved_at" IS NULL;
--> statement-breakpoint
UPDATE "report_share_links" SET "first_viewed_at" = "last_viewed_at" WHERE "last_viewed_at" IS NOT NULL AND "first_viewed_at" IS NULL;
--> statement-breakpoint
SELECT exam_steps_put(s."id", NULL) FROM "scheduled_exams" s;
--> statement-breakpoint
SELECT exam_steps_put(NULL, x."id") FROM "exams" x
  WHERE NOT EXISTS (SELECT 1 FROM "scheduled_exams" s WHERE s."exam_id" = x."id");
