CREATE TABLE "stat_remote" (
	"bucket_id" text NOT NULL,
	"span" text NOT NULL,
	"day" date NOT NULL,
	"side" text NOT NULL,
	"other_bucket_id" text NOT NULL,
	"modality" text NOT NULL,
	"reached" boolean NOT NULL,
	"orders" integer NOT NULL,
	"reported" integer NOT NULL,
	"cancelled" integer NOT NULL,
	"minutes" integer[] NOT NULL,
	"counts" integer[] NOT NULL,
	CONSTRAINT "stat_remote_bucket_id_span_day_side_other_bucket_id_modality_reached_pk" PRIMARY KEY("bucket_id","span","day","side","other_bucket_id","modality","reached")
);
--> statement-breakpoint
ALTER TABLE "stat_remote" ADD CONSTRAINT "stat_remote_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stat_remote" ADD CONSTRAINT "stat_remote_other_bucket_id_buckets_id_fk" FOREIGN KEY ("other_bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_exam_idx" ON "orders" USING btree ("exam_id");--> statement-breakpoint
-- statistics/remote-report (issue 26): stat_remote holds each report order under both sides'
-- organizations and is rebuilt for the (organization, day) pairs stat_dirty names; a change of an
-- order marks the days it was made on under both sides, before and after; an exam's modality
-- change marks its orders' days.
CREATE FUNCTION "stat_orders_dirty"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stat_dirty (bucket_id, day)
    SELECT DISTINCT b, d FROM (
      SELECT OLD.request_bucket_id AS b, stat_day(OLD.created) AS d WHERE TG_OP <> 'INSERT'
      UNION ALL SELECT OLD.target_bucket_id, stat_day(OLD.created) WHERE TG_OP <> 'INSERT'
      UNION ALL SELECT NEW.request_bucket_id, stat_day(NEW.created) WHERE TG_OP <> 'DELETE'
      UNION ALL SELECT NEW.target_bucket_id, stat_day(NEW.created) WHERE TG_OP <> 'DELETE'
    ) m WHERE b IS NOT NULL AND d IS NOT NULL ORDER BY b, d
    ON CONFLICT (bucket_id, day) DO UPDATE SET gen = stat_dirty.gen + 1 WHERE false;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "orders_stat_insert" AFTER INSERT ON "orders"
  FOR EACH ROW WHEN (NEW.type <> 'consultation') EXECUTE FUNCTION stat_orders_dirty();
--> statement-breakpoint
CREATE TRIGGER "orders_stat_delete" AFTER DELETE ON "orders"
  FOR EACH ROW WHEN (OLD.type <> 'consultation') EXECUTE FUNCTION stat_orders_dirty();
--> statement-breakpoint
CREATE TRIGGER "orders_stat_update" AFTER UPDATE OF type, request_bucket_id, target_bucket_id, exam_id, status, price_fen, payment_status, paid_at, reported_at, created ON "orders"
  FOR EACH ROW WHEN (
    (OLD.type <> 'consultation' OR NEW.type <> 'consultation') AND (
      OLD.type IS DISTINCT FROM NEW.type OR OLD.request_bucket_id IS DISTINCT FROM NEW.request_bucket_id
      OR OLD.target_bucket_id IS DISTINCT FROM NEW.target_bucket_id OR OLD.exam_id IS DISTINCT FROM NEW.exam_id
      OR OLD.status IS DISTINCT FROM NEW.status OR OLD.price_fen IS DISTINCT FROM NEW.price_fen
      OR OLD.payment_status IS DISTINCT FROM NEW.payment_status OR OLD.paid_at IS DISTINCT FROM NEW.paid_at
      OR OLD.reported_at IS DISTINCT FROM NEW.reported_at OR OLD.created IS DISTINCT FROM NEW.created)
  ) EXECUTE FUNCTION stat_orders_dirty();
--> statement-breakpoint
CREATE FUNCTION "stat_exam_orders_dirty"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stat_dirty (bucket_id, day)
    SELECT DISTINCT b, d FROM (
      SELECT o.request_bucket_id AS b, stat_day(o.created) AS d FROM orders o
        WHERE o.exam_id = NEW.id AND o.type <> 'consultation'
      UNION ALL SELECT o.target_bucket_id, stat_day(o.created) FROM orders o
        WHERE o.exam_id = NEW.id AND o.type <> 'consultation'
    ) m ORDER BY b, d
    ON CONFLICT (bucket_id, day) DO UPDATE SET gen = stat_dirty.gen + 1 WHERE false;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "exams_stat_orders_modality" AFTER UPDATE OF modality ON "exams"
  FOR EACH ROW WHEN (split_part(OLD.modality, '\', 1) IS DISTINCT FROM split_part(NEW.modality, '\', 1))
  EXECUTE FUNCTION stat_exam_orders_dirty();
--> statement-breakpoint
-- The orders already made are counted here, once, as the recount counts them (stat-remote-rollup.store.ts).
WITH o AS (
  SELECT o.request_bucket_id AS bucket_id, stat_day(o.created) AS day, 's' AS side, o.target_bucket_id AS other_bucket_id,
    o.exam_id, o.price_fen, o.payment_status, o.status, o.reported_at, o.paid_at, o.created
  FROM orders o WHERE o.type <> 'consultation'
  UNION ALL
  SELECT o.target_bucket_id, stat_day(o.created), 'r', o.request_bucket_id,
    o.exam_id, o.price_fen, o.payment_status, o.status, o.reported_at, o.paid_at, o.created
  FROM orders o WHERE o.type <> 'consultation'
),
d AS (
  SELECT o.bucket_id, o.day, o.side, o.other_bucket_id, coalesce(split_part(e.modality, '\', 1), '') AS modality,
    (o.price_fen = 0 OR o.payment_status <> 0) AS reached, o.status,
    CASE WHEN o.status = 'reported' AND o.reported_at IS NOT NULL
      THEN ceil(extract(epoch FROM o.reported_at - coalesce(o.paid_at, o.created)) / 60)::int END AS m
  FROM o JOIN exams e ON e.id = o.exam_id
),
c AS (
  SELECT bucket_id, day, side, other_bucket_id, modality, reached, count(*)::int AS orders,
    count(*) FILTER (WHERE status = 'reported')::int AS reported, count(*) FILTER (WHERE status = 'cancelled')::int AS cancelled
  FROM d GROUP BY bucket_id, day, side, other_bucket_id, modality, reached
),
h AS (
  SELECT bucket_id, day, side, other_bucket_id, modality, reached, array_agg(m ORDER BY m) AS minutes, array_agg(n ORDER BY m) AS counts
  FROM (SELECT bucket_id, day, side, other_bucket_id, modality, reached, m, count(*)::int AS n FROM d WHERE m IS NOT NULL
    GROUP BY bucket_id, day, side, other_bucket_id, modality, reached, m) z
  GROUP BY bucket_id, day, side, other_bucket_id, modality, reached
)
INSERT INTO stat_remote (bucket_id, span, day, side, other_bucket_id, modality, reached, orders, reported, cancelled, minutes, counts)
  SELECT c.bucket_id, 'd', c.day, c.side, c.other_bucket_id, c.modality, c.reached, c.orders, c.reported, c.cancelled,
    coalesce(h.minutes, '{}'), coalesce(h.counts, '{}')
  FROM c LEFT JOIN h USING (bucket_id, day, side, other_bucket_id, modality, reached);
--> statement-breakpoint
WITH t AS (SELECT *, date_trunc('month', day)::date AS month FROM stat_remote WHERE span = 'd'),
c AS (
  SELECT bucket_id, month, side, other_bucket_id, modality, reached, sum(orders)::int AS orders,
    sum(reported)::int AS reported, sum(cancelled)::int AS cancelled
  FROM t GROUP BY bucket_id, month, side, other_bucket_id, modality, reached
),
h AS (
  SELECT bucket_id, month, side, other_bucket_id, modality, reached, array_agg(m ORDER BY m) AS minutes, array_agg(n ORDER BY m) AS counts
  FROM (SELECT t.bucket_id, t.month, t.side, t.other_bucket_id, t.modality, t.reached, u.m, sum(u.c)::int AS n
    FROM t CROSS JOIN LATERAL unnest(t.minutes, t.counts) AS u(m, c)
    GROUP BY t.bucket_id, t.month, t.side, t.other_bucket_id, t.modality, t.reached, u.m) z
  GROUP BY bucket_id, month, side, other_bucket_id, modality, reached
)
INSERT INTO stat_remote (bucket_id, span, day, side, other_bucket_id, modality, reached, orders, reported, cancelled, minutes, counts)
SELECT c.bucket_id, 'm', c.month, c.side, c.other_bucket_id, c.modality, c.reached, c.orders, c.reported, c.cancelled,
  coalesce(h.minutes, '{}'), coalesce(h.counts, '{}')
FROM c LEFT JOIN h USING (bucket_id, month, side, other_bucket_id, modality, reached);
