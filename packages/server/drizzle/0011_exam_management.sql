CREATE TABLE "co_exams" (
	"primary_exam_id" text NOT NULL,
	"exam_id" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_tags" (
	"exam_id" text NOT NULL,
	"tag_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "custom_searches" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"criteria" jsonb NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 3 NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "patient_source" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "inpatient_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "outpatient_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "bed_num" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "physical_exam_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "patient_phone" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "apply_dept" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "order_placer" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "clinic_impression" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "scan_tech" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "physician" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "body_part_count" integer;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "weight" real;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "height" real;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "urgent_flag" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "tele_med_flag" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "is_privacy" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "critical_flag" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "report_status" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "extensions" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "assignee_id" text;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "assigned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "ai_status" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "ai_result" jsonb;--> statement-breakpoint
ALTER TABLE "co_exams" ADD CONSTRAINT "co_exams_primary_exam_id_exams_id_fk" FOREIGN KEY ("primary_exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "co_exams" ADD CONSTRAINT "co_exams_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "co_exams" ADD CONSTRAINT "co_exams_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_tags" ADD CONSTRAINT "exam_tags_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_searches" ADD CONSTRAINT "custom_searches_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "co_exams_exam_idx" ON "co_exams" USING btree ("exam_id");--> statement-breakpoint
CREATE INDEX "co_exams_primary_idx" ON "co_exams" USING btree ("primary_exam_id");--> statement-breakpoint
CREATE UNIQUE INDEX "exam_tags_pk" ON "exam_tags" USING btree ("exam_id","tag_id");--> statement-breakpoint
CREATE INDEX "exam_tags_tag_idx" ON "exam_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE UNIQUE INDEX "custom_searches_title_idx" ON "custom_searches" USING btree ("account_id","type",lower("title"));--> statement-breakpoint
CREATE INDEX "custom_searches_account_idx" ON "custom_searches" USING btree ("account_id","type","sort");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_after") WHERE "jobs"."status" in ('queued', 'running');--> statement-breakpoint
ALTER TABLE "exams" ADD CONSTRAINT "exams_assignee_id_accounts_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exams_assignee_idx" ON "exams" USING btree ("assignee_id") WHERE "exams"."assignee_id" is not null;