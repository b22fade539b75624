CREATE TABLE "stat_consul" (
	"bucket_id" text NOT NULL,
	"day" date NOT NULL,
	"side" text NOT NULL,
	"other_bucket_id" text NOT NULL,
	"requested" integer NOT NULL,
	"completed" integer NOT NULL,
	"cancelled" integer NOT NULL,
	"ratings" integer NOT NULL,
	"rating_sum" integer NOT NULL,
	CONSTRAINT "stat_consul_bucket_id_day_side_other_bucket_id_pk" PRIMARY KEY("bucket_id","day","side","other_bucket_id")
);
--> statement-breakpoint
CREATE TABLE "stat_revenue" (
	"bucket_id" text NOT NULL,
	"day" date NOT NULL,
	"currency" text NOT NULL,
	"product_key" text NOT NULL,
	"modality" text NOT NULL,
	"product_name" text NOT NULL,
	"lines" integer NOT NULL,
	"single" integer NOT NULL,
	"paid" bigint NOT NULL,
	"refunded" bigint NOT NULL,
	"credited" bigint NOT NULL,
	"net" bigint NOT NULL,
	CONSTRAINT "stat_revenue_bucket_id_day_currency_product_key_modality_pk" PRIMARY KEY("bucket_id","day","currency","product_key","modality")
);
--> statement-breakpoint
DROP INDEX "stat_revenue_lines_order_idx";--> statement-breakpoint
ALTER TABLE "stat_consul" ADD CONSTRAINT "stat_consul_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stat_consul" ADD CONSTRAINT "stat_consul_other_bucket_id_buckets_id_fk" FOREIGN KEY ("other_bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stat_revenue" ADD CONSTRAINT "stat_revenue_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stat_revenue_lines_order_idx" ON "stat_revenue_lines" USING btree ("order_id");--> statement-breakpoint
-- statistics/group-payment, the billings' sums (stat_revenue) and statistics/consul (stat_consul)
-- are read from rollups rebuilt for the (organization, day) pairs stat_dirty names (issue 26;
-- stat-revenue-rollup.store.ts, stat-consul-rollup.store.ts). The revenue lines written mark their
-- organization's day, and so do lines an order's second payment marks multi.
CREATE OR REPLACE FUNCTION "stat_revenue_lines_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  repeated text[];
BEGIN
  WITH added AS (
    INSERT INTO stat_revenue_lines (id, account, created, day, currency, kind, amount_fen, order_id)
      SELECT n.id, n.account, n.created, stat_day(n.created), n.currency, t.kind, n.amount_fen, t.order_id
      FROM new_rows n JOIN ledger_txns t ON t.id = n.txn_id
      WHERE n.account LIKE 'revenue:%' AND t.kind IN ('payment', 'refund', 'sla_credit')
      RETURNING account, day
  )
  INSERT INTO stat_dirty (bucket_id, day)
    SELECT DISTINCT substr(account, 9), day FROM added ORDER BY 1, 2
    ON CONFLICT (bucket_id, day) DO UPDATE SET gen = stat_dirty.gen + 1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  WITH paid AS (
    INSERT INTO stat_paid_orders AS p (order_id, payments)
      SELECT t.order_id, count(*) FROM new_rows n JOIN ledger_txns t ON t.id = n.txn_id
      WHERE n.account LIKE 'revenue:%' AND t.kind = 'payment' AND t.order_id IS NOT NULL
      GROUP BY t.order_id ORDER BY t.order_id
    ON CONFLICT (order_id) DO UPDATE SET payments = p.payments + excluded.payments
    RETURNING p.order_id, p.payments
  )
  SELECT array_agg(order_id) INTO repeated FROM paid WHERE payments > 1;
  IF repeated IS NOT NULL THEN
    WITH marked AS (
      UPDATE stat_revenue_lines SET multi = true
        WHERE order_id = ANY (repeated) AND kind = 'payment' AND NOT multi
        RETURNING account, day
    )
    INSERT INTO stat_dirty (bucket_id, day)
      SELECT DISTINCT substr(account, 9), day FROM marked ORDER BY 1, 2
      ON CONFLICT (bucket_id, day) DO UPDATE SET gen = stat_dirty.gen + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A line deleted with its ledger entry marks its day.
CREATE FUNCTION "stat_revenue_lines_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stat_dirty (bucket_id, day)
    SELECT DISTINCT substr(account, 9), day FROM old_rows ORDER BY 1, 2
    ON CONFLICT (bucket_id, day) DO UPDATE SET gen = stat_dirty.gen + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "stat_revenue_lines_delete" AFTER DELETE ON "stat_revenue_lines"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION stat_revenue_lines_deleted();
--> statement-breakpoint
-- An order's product or exam changed, or the order deleted: the days of its revenue lines.
CREATE FUNCTION "stat_order_revenue_dirty"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stat_dirty (bucket_id, day)
    SELECT DISTINCT substr(l.account, 9), l.day FROM stat_revenue_lines l WHERE l.order_id = OLD.id ORDER BY 1, 2
    ON CONFLICT (bucket_id, day) DO UPDATE SET gen = stat_dirty.gen + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "orders_stat_revenue_update" AFTER UPDATE OF product_id, product_name, exam_id ON "orders"
  FOR EACH ROW WHEN (
    OLD.product_id IS DISTINCT FROM NEW.product_id OR OLD.product_name IS DISTINCT FROM NEW.product_name
    OR OLD.exam_id IS DISTINCT FROM NEW.exam_id
  ) EXECUTE FUNCTION stat_order_revenue_dirty();
--> statement-breakpoint
CREATE TRIGGER "orders_stat_revenue_delete" AFTER DELETE ON "orders"
  FOR EACH ROW EXECUTE FUNCTION stat_order_revenue_dirty();
--> statement-breakpoint
-- An exam's modality change marks its report orders' days (migration 0054) and the days of its
-- orders' revenue lines.
CREATE OR REPLACE FUNCTION "stat_exam_orders_dirty"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stat_dirty (bucket_id, day)
    SELECT DISTINCT b, d FROM (
      SELECT o.request_bucket_id AS b, stat_day(o.created) AS d FROM orders o
        WHERE o.exam_id = NEW.id AND o.type <> 'consultation'
      UNION ALL SELECT o.target_bucket_id, stat_day(o.created) FROM orders o
        WHERE o.exam_id = NEW.id AND o.type <> 'consultation'
      UNION ALL SELECT substr(l.account, 9), l.day FROM orders o JOIN stat_revenue_lines l ON l.order_id = o.id
        WHERE o.exam_id = NEW.id
    ) m ORDER BY b, d
    ON CONFLICT (bucket_id, day) DO UPDATE SET gen = stat_dirty.gen + 1 WHERE false;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A consultation asked, changed or deleted marks both sides' days, before and after.
CREATE FUNCTION "stat_consultations_dirty"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stat_dirty (bucket_id, day)
    SELECT DISTINCT b, d FROM (
      SELECT OLD.source_bucket_id AS b, stat_day(OLD.created) AS d WHERE TG_OP <> 'INSERT'
      UNION ALL SELECT OLD.target_bucket_id, stat_day(OLD.created) WHERE TG_OP <> 'INSERT'
      UNION ALL SELECT NEW.source_bucket_id, stat_day(NEW.created) WHERE TG_OP <> 'DELETE'
      UNION ALL SELECT NEW.target_bucket_id, stat_day(NEW.created) WHERE TG_OP <> 'DELETE'
    ) m ORDER BY b, d
    ON CONFLICT (bucket_id, day) DO UPDATE SET gen = stat_dirty.gen + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "consultations_stat_insert" AFTER INSERT ON "consultations"
  FOR EACH ROW EXECUTE FUNCTION stat_consultations_dirty();
--> statement-breakpoint
CREATE TRIGGER "consultations_stat_delete" AFTER DELETE ON "consultations"
  FOR EACH ROW EXECUTE FUNCTION stat_consultations_dirty();
--> statement-breakpoint
CREATE TRIGGER "consultations_stat_update" AFTER UPDATE OF source_bucket_id, target_bucket_id, status, rating_score, created ON "consultations"
  FOR EACH ROW WHEN (
    OLD.source_bucket_id IS DISTINCT FROM NEW.source_bucket_id OR OLD.target_bucket_id IS DISTINCT FROM NEW.target_bucket_id
    OR OLD.status IS DISTINCT FROM NEW.status OR OLD.rating_score IS DISTINCT FROM NEW.rating_score
    OR OLD.created IS DISTINCT FROM NEW.created
  ) EXECUTE FUNCTION stat_consultations_dirty();
--> statement-breakpoint
-- The lines and consultations already written are counted at the first read (or by the background
-- recount), as every other rollup's existing rows were (migrations 0043, 0054).
INSERT INTO stat_dirty (bucket_id, day)
  SELECT DISTINCT substr(l.account, 9), l.day FROM stat_revenue_lines l
  UNION SELECT source_bucket_id, stat_day(created) FROM consultations
  UNION SELECT target_bucket_id, stat_day(created) FROM consultations
  ON CONFLICT (bucket_id, day) DO NOTHING;
