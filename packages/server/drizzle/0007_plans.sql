ALTER TABLE "buckets" ADD COLUMN "plan_kind" text;--> statement-breakpoint
ALTER TABLE "buckets" ADD COLUMN "plan_quota" integer;--> statement-breakpoint
ALTER TABLE "buckets" ADD COLUMN "plan_used" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "buckets" ADD COLUMN "plan_expires_at" timestamp with time zone;