CREATE TABLE "order_counts" (
	"bucket_id" text NOT NULL,
	"side" text NOT NULL,
	"status" text NOT NULL,
	"payment_status" integer NOT NULL,
	"type" text NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "order_counts_bucket_id_side_status_payment_status_type_pk" PRIMARY KEY("bucket_id","side","status","payment_status","type")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "search_keys" text[] GENERATED ALWAYS AS (registry_search_keys(patient_name, '')) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "order_counts" ADD CONSTRAINT "order_counts_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_order_no_prefix_idx" ON "orders" USING btree ("order_no" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "orders_search_keys_idx" ON "orders" USING gin ("search_keys");--> statement-breakpoint
INSERT INTO "order_counts" ("bucket_id", "side", "status", "payment_status", "type", "n")
  SELECT "bucket_id", "side", "status", "payment_status", "type", count(*) FROM (
    SELECT "request_bucket_id" AS "bucket_id", 'request' AS "side", "status", "payment_status", "type" FROM "orders"
    UNION ALL
    SELECT "target_bucket_id", 'target', "status", "payment_status", "type" FROM "orders" WHERE "target_exam_id" IS NOT NULL
  ) o GROUP BY "bucket_id", "side", "status", "payment_status", "type";
--> statement-breakpoint
CREATE FUNCTION "order_counts_of"(bucket_id text, side text, status text, payment_status integer, type text, n bigint)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO order_counts (bucket_id, side, status, payment_status, type, n)
    VALUES (bucket_id, side, status, payment_status, type, n)
    ON CONFLICT (bucket_id, side, status, payment_status, type) DO UPDATE SET n = order_counts.n + excluded.n
$$;
--> statement-breakpoint
CREATE FUNCTION "order_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
  -- Orders per organization and side, status, payment status and type, moved by each statement
  -- that writes them: the placing organization counts every order, the experts' organization those
  -- shared with it (target_exam_id set).
  IF TG_OP = 'INSERT' THEN
    FOR r IN SELECT b, s, st, ps, ty, sum(n) AS n FROM (
        SELECT request_bucket_id AS b, 'request' AS s, status AS st, payment_status AS ps, type AS ty, 1 AS n FROM new_rows
        UNION ALL
        SELECT target_bucket_id, 'target', status, payment_status, type, 1 FROM new_rows WHERE target_exam_id IS NOT NULL
      ) x GROUP BY b, s, st, ps, ty LOOP
      PERFORM order_counts_of(r.b, r.s, r.st, r.ps, r.ty, r.n);
    END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    FOR r IN SELECT b, s, st, ps, ty, sum(n) AS n FROM (
        SELECT request_bucket_id AS b, 'request' AS s, status AS st, payment_status AS ps, type AS ty, -1 AS n FROM old_rows
        UNION ALL
        SELECT target_bucket_id, 'target', status, payment_status, type, -1 FROM old_rows WHERE target_exam_id IS NOT NULL
      ) x GROUP BY b, s, st, ps, ty LOOP
      UPDATE order_counts c SET n = c.n + r.n
        WHERE c.bucket_id = r.b AND c.side = r.s AND c.status = r.st AND c.payment_status = r.ps AND c.type = r.ty;
    END LOOP;
  ELSE
    FOR r IN SELECT b, s, st, ps, ty, sum(n) AS n FROM (
        SELECT request_bucket_id AS b, 'request' AS s, status AS st, payment_status AS ps, type AS ty, -1 AS n FROM old_rows
        UNION ALL
        SELECT target_bucket_id, 'target', status, payment_status, type, -1 FROM old_rows WHERE target_exam_id IS NOT NULL
        UNION ALL
        SELECT request_bucket_id, 'request', status, payment_status, type, 1 FROM new_rows
        UNION ALL
        SELECT target_bucket_id, 'target', status, payment_status, type, 1 FROM new_rows WHERE target_exam_id IS NOT NULL
      ) x GROUP BY b, s, st, ps, ty HAVING sum(n) <> 0 LOOP
      PERFORM order_counts_of(r.b, r.s, r.st, r.ps, r.ty, r.n);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "orders_count_insert" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION order_counts_apply();
--> statement-breakpoint
CREATE TRIGGER "orders_count_update" AFTER UPDATE ON "orders" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION order_counts_apply();
--> statement-breakpoint
CREATE TRIGGER "orders_count_delete" AFTER DELETE ON "orders" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION order_counts_apply();
