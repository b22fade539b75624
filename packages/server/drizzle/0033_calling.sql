CREATE TABLE "calling_settings" (
	"bucket_id" text PRIMARY KEY NOT NULL,
	"announcement_template" text NOT NULL,
	"speak_full_name" boolean DEFAULT false NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
CREATE TABLE "queue_exams" (
	"id" text PRIMARY KEY NOT NULL,
	"bucket_id" text NOT NULL,
	"queue_type_id" text NOT NULL,
	"scheduled_exam_id" text NOT NULL,
	"check_in_date" text NOT NULL,
	"queue_no" integer NOT NULL,
	"status" text NOT NULL,
	"urgent" boolean DEFAULT false NOT NULL,
	"room" text DEFAULT '' NOT NULL,
	"called_at" timestamp with time zone,
	"called_count" integer DEFAULT 0 NOT NULL,
	"called_by" text,
	"checked_in_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"moved_to_id" text,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "queue_types" (
	"id" text PRIMARY KEY NOT NULL,
	"bucket_id" text NOT NULL,
	"display_name" text NOT NULL,
	"modality" text NOT NULL,
	"room_name" text DEFAULT '' NOT NULL,
	"urgent_first" boolean DEFAULT true NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "screen_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"bucket_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"label" text NOT NULL,
	"created_by" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "calling_settings" ADD CONSTRAINT "calling_settings_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calling_settings" ADD CONSTRAINT "calling_settings_updated_by_accounts_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_exams" ADD CONSTRAINT "queue_exams_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_exams" ADD CONSTRAINT "queue_exams_queue_type_id_queue_types_id_fk" FOREIGN KEY ("queue_type_id") REFERENCES "public"."queue_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_exams" ADD CONSTRAINT "queue_exams_scheduled_exam_id_scheduled_exams_id_fk" FOREIGN KEY ("scheduled_exam_id") REFERENCES "public"."scheduled_exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_exams" ADD CONSTRAINT "queue_exams_called_by_accounts_id_fk" FOREIGN KEY ("called_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_types" ADD CONSTRAINT "queue_types_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screen_tokens" ADD CONSTRAINT "screen_tokens_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screen_tokens" ADD CONSTRAINT "screen_tokens_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "queue_exams_number_idx" ON "queue_exams" USING btree ("queue_type_id","check_in_date","queue_no");--> statement-breakpoint
CREATE INDEX "queue_exams_bucket_day_idx" ON "queue_exams" USING btree ("bucket_id","check_in_date","status");--> statement-breakpoint
CREATE UNIQUE INDEX "queue_exams_scheduled_day_idx" ON "queue_exams" USING btree ("scheduled_exam_id","check_in_date") WHERE "queue_exams"."status" <> 'moved';--> statement-breakpoint
CREATE UNIQUE INDEX "queue_types_bucket_name_idx" ON "queue_types" USING btree ("bucket_id","display_name");--> statement-breakpoint
CREATE UNIQUE INDEX "screen_tokens_hash_idx" ON "screen_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "screen_tokens_bucket_idx" ON "screen_tokens" USING btree ("bucket_id");