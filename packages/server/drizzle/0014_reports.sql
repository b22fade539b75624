CREATE TABLE "image_desc_templates" (
	"id" text PRIMARY KEY NOT NULL,
	"bucket_id" text NOT NULL,
	"title" text NOT NULL,
	"modality" text DEFAULT '' NOT NULL,
	"body_part" text DEFAULT '' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kb_items" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"bucket_id" text,
	"owner_id" text,
	"parent_id" text,
	"reference_id" text,
	"is_folder" boolean DEFAULT false NOT NULL,
	"title" text NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"position" double precision NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_sample_graphs" (
	"id" text PRIMARY KEY NOT NULL,
	"report_id" text NOT NULL,
	"sample_graph_id" text NOT NULL,
	"points" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"is_printed" boolean DEFAULT true NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_templates" (
	"id" text PRIMARY KEY NOT NULL,
	"scope" text NOT NULL,
	"bucket_id" text,
	"owner_id" text,
	"category" text DEFAULT '' NOT NULL,
	"title" text NOT NULL,
	"modality" text DEFAULT '' NOT NULL,
	"body_part" text DEFAULT '' NOT NULL,
	"findings" text DEFAULT '' NOT NULL,
	"conclusion" text DEFAULT '' NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_traces" (
	"id" text PRIMARY KEY NOT NULL,
	"report_id" text NOT NULL,
	"seq" integer NOT NULL,
	"action" text NOT NULL,
	"actor_id" text,
	"actor_name" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"status_from" text NOT NULL,
	"status_to" text NOT NULL,
	"version" integer NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"changed" boolean DEFAULT false NOT NULL,
	"content" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" text PRIMARY KEY NOT NULL,
	"bucket_id" text NOT NULL,
	"status" text DEFAULT 'none' NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"content" jsonb NOT NULL,
	"creator_id" text,
	"last_updater_id" text,
	"issuer_id" text,
	"approver_id" text,
	"note_taker_id" text,
	"reject_reason" text DEFAULT '' NOT NULL,
	"recall_reason" text DEFAULT '' NOT NULL,
	"advice_expert_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"locked_by" text,
	"locked_at" timestamp with time zone,
	"saved_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"approved_at" timestamp with time zone,
	"print_approved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sample_graphs" (
	"id" text PRIMARY KEY NOT NULL,
	"bucket_id" text NOT NULL,
	"title" text NOT NULL,
	"blob_key" text NOT NULL,
	"content_type" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "image_desc_templates" ADD CONSTRAINT "image_desc_templates_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "image_desc_templates" ADD CONSTRAINT "image_desc_templates_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_items" ADD CONSTRAINT "kb_items_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_items" ADD CONSTRAINT "kb_items_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_items" ADD CONSTRAINT "kb_items_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_sample_graphs" ADD CONSTRAINT "report_sample_graphs_report_id_exams_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_sample_graphs" ADD CONSTRAINT "report_sample_graphs_sample_graph_id_sample_graphs_id_fk" FOREIGN KEY ("sample_graph_id") REFERENCES "public"."sample_graphs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_sample_graphs" ADD CONSTRAINT "report_sample_graphs_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_templates" ADD CONSTRAINT "report_templates_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_templates" ADD CONSTRAINT "report_templates_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_templates" ADD CONSTRAINT "report_templates_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_traces" ADD CONSTRAINT "report_traces_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_traces" ADD CONSTRAINT "report_traces_actor_id_accounts_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_id_exams_id_fk" FOREIGN KEY ("id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_creator_id_accounts_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_last_updater_id_accounts_id_fk" FOREIGN KEY ("last_updater_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_issuer_id_accounts_id_fk" FOREIGN KEY ("issuer_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_approver_id_accounts_id_fk" FOREIGN KEY ("approver_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_note_taker_id_accounts_id_fk" FOREIGN KEY ("note_taker_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_locked_by_accounts_id_fk" FOREIGN KEY ("locked_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sample_graphs" ADD CONSTRAINT "sample_graphs_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sample_graphs" ADD CONSTRAINT "sample_graphs_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "image_desc_templates_bucket_idx" ON "image_desc_templates" USING btree ("bucket_id");--> statement-breakpoint
CREATE INDEX "kb_items_bucket_idx" ON "kb_items" USING btree ("bucket_id","parent_id","position") WHERE "kb_items"."type" = 'group';--> statement-breakpoint
CREATE INDEX "kb_items_owner_idx" ON "kb_items" USING btree ("owner_id","parent_id","position") WHERE "kb_items"."type" = 'personal';--> statement-breakpoint
CREATE INDEX "report_sample_graphs_report_idx" ON "report_sample_graphs" USING btree ("report_id","position");--> statement-breakpoint
CREATE INDEX "report_templates_bucket_idx" ON "report_templates" USING btree ("bucket_id") WHERE "report_templates"."bucket_id" is not null;--> statement-breakpoint
CREATE INDEX "report_templates_owner_idx" ON "report_templates" USING btree ("owner_id") WHERE "report_templates"."owner_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "report_traces_seq_idx" ON "report_traces" USING btree ("report_id","seq");--> statement-breakpoint
CREATE INDEX "reports_bucket_status_idx" ON "reports" USING btree ("bucket_id","status");--> statement-breakpoint
CREATE INDEX "sample_graphs_bucket_idx" ON "sample_graphs" USING btree ("bucket_id","position");