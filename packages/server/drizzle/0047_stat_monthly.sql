CREATE TABLE "stat_monthly" (
	"bucket_id" text NOT NULL,
	"kind" text NOT NULL,
	"month" date NOT NULL,
	"k1" text DEFAULT '' NOT NULL,
	"k2" text DEFAULT '' NOT NULL,
	"k3" text DEFAULT '' NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	"s" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "stat_monthly_bucket_id_kind_month_k1_k2_k3_pk" PRIMARY KEY("bucket_id","kind","month","k1","k2","k3")
);
--> statement-breakpoint
ALTER TABLE "stat_monthly" ADD CONSTRAINT "stat_monthly_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The months of the daily rows already counted (issue 26's month-level rollup starts exact).
INSERT INTO "stat_monthly" ("bucket_id", "kind", "month", "k1", "k2", "k3", "n", "s")
  SELECT "bucket_id", "kind", date_trunc('month', "day")::date, "k1", "k2", "k3", sum("n"), sum("s")
  FROM "stat_daily"
  GROUP BY "bucket_id", "kind", date_trunc('month', "day")::date, "k1", "k2", "k3";
