CREATE TABLE "critical_values" (
	"id" text PRIMARY KEY NOT NULL,
	"report_id" text NOT NULL,
	"bucket_id" text NOT NULL,
	"item_id" text,
	"text" text NOT NULL,
	"level" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'sent' NOT NULL,
	"notify_dept" text DEFAULT '' NOT NULL,
	"reported_by" text,
	"sent_at" timestamp with time zone NOT NULL,
	"receiver" text DEFAULT '' NOT NULL,
	"received_at" timestamp with time zone,
	"confirmor" text DEFAULT '' NOT NULL,
	"readback_opinion" text DEFAULT '' NOT NULL,
	"handler_id" text,
	"handled_at" timestamp with time zone,
	"handle_note" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "group_integrations" (
	"group_id" text PRIMARY KEY NOT NULL,
	"web_secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rotated_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "print_templates" (
	"bucket_id" text PRIMARY KEY NOT NULL,
	"hospital_name" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"logo_key" text,
	"stamp_key" text,
	"footer_html" text DEFAULT '' NOT NULL,
	"image_columns" integer DEFAULT 2 NOT NULL,
	"show_signatures" boolean DEFAULT true NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_comments" (
	"id" text PRIMARY KEY NOT NULL,
	"report_id" text NOT NULL,
	"bucket_id" text NOT NULL,
	"author_id" text,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "report_quality" (
	"report_id" text PRIMARY KEY NOT NULL,
	"bucket_id" text NOT NULL,
	"level" text NOT NULL,
	"suggestion" text DEFAULT '' NOT NULL,
	"unsatisfactory_items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"creator_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_ratings" (
	"id" text PRIMARY KEY NOT NULL,
	"report_id" text NOT NULL,
	"bucket_id" text NOT NULL,
	"rater_id" text,
	"score" integer NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_share_links" (
	"id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"kind" text DEFAULT 'share' NOT NULL,
	"report_id" text NOT NULL,
	"bucket_id" text NOT NULL,
	"report_version" integer NOT NULL,
	"allow_images" boolean DEFAULT false NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" text,
	"view_count" integer DEFAULT 0 NOT NULL,
	"last_viewed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "report_table_colors" (
	"id" text PRIMARY KEY NOT NULL,
	"group_id" text NOT NULL,
	"name" text NOT NULL,
	"field" text NOT NULL,
	"value" text NOT NULL,
	"color" text DEFAULT '' NOT NULL,
	"background" text DEFAULT '' NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "print_submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "critical_values" ADD CONSTRAINT "critical_values_report_id_exams_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "critical_values" ADD CONSTRAINT "critical_values_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "critical_values" ADD CONSTRAINT "critical_values_reported_by_accounts_id_fk" FOREIGN KEY ("reported_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "critical_values" ADD CONSTRAINT "critical_values_handler_id_accounts_id_fk" FOREIGN KEY ("handler_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_integrations" ADD CONSTRAINT "group_integrations_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_templates" ADD CONSTRAINT "print_templates_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_templates" ADD CONSTRAINT "print_templates_updated_by_accounts_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_comments" ADD CONSTRAINT "report_comments_report_id_exams_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_comments" ADD CONSTRAINT "report_comments_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_comments" ADD CONSTRAINT "report_comments_author_id_accounts_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_quality" ADD CONSTRAINT "report_quality_report_id_exams_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_quality" ADD CONSTRAINT "report_quality_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_quality" ADD CONSTRAINT "report_quality_creator_id_accounts_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_ratings" ADD CONSTRAINT "report_ratings_report_id_exams_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_ratings" ADD CONSTRAINT "report_ratings_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_ratings" ADD CONSTRAINT "report_ratings_rater_id_accounts_id_fk" FOREIGN KEY ("rater_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_share_links" ADD CONSTRAINT "report_share_links_report_id_exams_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_share_links" ADD CONSTRAINT "report_share_links_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_share_links" ADD CONSTRAINT "report_share_links_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_share_links" ADD CONSTRAINT "report_share_links_revoked_by_accounts_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_table_colors" ADD CONSTRAINT "report_table_colors_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "critical_values_report_idx" ON "critical_values" USING btree ("report_id");--> statement-breakpoint
CREATE INDEX "critical_values_open_idx" ON "critical_values" USING btree ("bucket_id","sent_at") WHERE "critical_values"."status" <> 'handled';--> statement-breakpoint
CREATE INDEX "critical_values_bucket_sent_idx" ON "critical_values" USING btree ("bucket_id","sent_at");--> statement-breakpoint
CREATE INDEX "report_comments_report_idx" ON "report_comments" USING btree ("report_id","created_at");--> statement-breakpoint
CREATE INDEX "report_quality_bucket_idx" ON "report_quality" USING btree ("bucket_id","level","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "report_ratings_rater_idx" ON "report_ratings" USING btree ("report_id","rater_id");--> statement-breakpoint
CREATE UNIQUE INDEX "report_share_links_token_idx" ON "report_share_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "report_share_links_report_idx" ON "report_share_links" USING btree ("report_id");--> statement-breakpoint
CREATE INDEX "report_share_links_bucket_kind_idx" ON "report_share_links" USING btree ("bucket_id","kind","created_at");--> statement-breakpoint
CREATE INDEX "report_table_colors_group_idx" ON "report_table_colors" USING btree ("group_id","priority");