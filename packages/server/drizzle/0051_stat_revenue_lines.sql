CREATE TABLE "stat_paid_orders" (
	"order_id" text PRIMARY KEY NOT NULL,
	"payments" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stat_revenue_lines" (
	"id" text PRIMARY KEY NOT NULL,
	"account" text NOT NULL,
	"created" timestamp with time zone NOT NULL,
	"day" date NOT NULL,
	"currency" text NOT NULL,
	"kind" text NOT NULL,
	"amount_fen" bigint NOT NULL,
	"order_id" text,
	"multi" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stat_revenue_lines" ADD CONSTRAINT "stat_revenue_lines_id_ledger_entries_id_fk" FOREIGN KEY ("id") REFERENCES "public"."ledger_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stat_revenue_lines_account_idx" ON "stat_revenue_lines" USING btree ("account","created","id");--> statement-breakpoint
CREATE INDEX "stat_revenue_lines_multi_idx" ON "stat_revenue_lines" USING btree ("account","created") WHERE "stat_revenue_lines"."multi";--> statement-breakpoint
CREATE INDEX "stat_revenue_lines_order_idx" ON "stat_revenue_lines" USING btree ("order_id") WHERE "stat_revenue_lines"."kind" = 'payment';--> statement-breakpoint
-- statistics/group-payment and billings (issue 26) read the revenue lines (payments, refunds and
-- turnaround credits on revenue:<bucketId>) from stat_revenue_lines, copied with their transaction's
-- kind and order and their hospital day in the writer's transaction, instead of joining a year of
-- ledger entries to their transactions. An order paid more than once counts once: stat_paid_orders
-- counts each order's payment lines by an upsert (a transaction paying an order another is paying
-- waits for the other's row, then adds to it) and, in the next statement (which sees the other's
-- lines), an order with more than one has all its payment lines marked multi. The count never goes
-- down, so multi may stay on a line whose twin was deleted: it is then counted distinct, still once.
CREATE FUNCTION "stat_revenue_lines_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  repeated text[];
BEGIN
  INSERT INTO stat_revenue_lines (id, account, created, day, currency, kind, amount_fen, order_id)
    SELECT n.id, n.account, n.created, stat_day(n.created), n.currency, t.kind, n.amount_fen, t.order_id
    FROM new_rows n JOIN ledger_txns t ON t.id = n.txn_id
    WHERE n.account LIKE 'revenue:%' AND t.kind IN ('payment', 'refund', 'sla_credit');
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
    UPDATE stat_revenue_lines SET multi = true
      WHERE order_id = ANY (repeated) AND kind = 'payment' AND NOT multi;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO stat_revenue_lines (id, account, created, day, currency, kind, amount_fen, order_id)
  SELECT e.id, e.account, e.created, stat_day(e.created), e.currency, t.kind, e.amount_fen, t.order_id
  FROM ledger_entries e JOIN ledger_txns t ON t.id = e.txn_id
  WHERE e.account LIKE 'revenue:%' AND t.kind IN ('payment', 'refund', 'sla_credit');
--> statement-breakpoint
INSERT INTO stat_paid_orders (order_id, payments)
  SELECT order_id, count(*) FROM stat_revenue_lines
  WHERE kind = 'payment' AND order_id IS NOT NULL GROUP BY order_id;
--> statement-breakpoint
UPDATE stat_revenue_lines s SET multi = true FROM stat_paid_orders p
  WHERE p.payments > 1 AND s.order_id = p.order_id AND s.kind = 'payment';
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_stat_insert" AFTER INSERT ON "ledger_entries"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stat_revenue_lines_insert();
