CREATE TABLE "consultation_cases" (
	"id" text PRIMARY KEY NOT NULL,
	"consultation_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_by" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consultation_exams" (
	"consultation_id" text NOT NULL,
	"exam_id" text NOT NULL,
	"shared_exam_id" text,
	"name" text DEFAULT '' NOT NULL,
	"modality" text DEFAULT '' NOT NULL,
	"body_part" text DEFAULT '' NOT NULL,
	"study_date" text,
	"bound_by" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consultation_exams_consultation_id_exam_id_pk" PRIMARY KEY("consultation_id","exam_id")
);
--> statement-breakpoint
CREATE TABLE "consultation_files" (
	"id" text PRIMARY KEY NOT NULL,
	"consultation_id" text NOT NULL,
	"case_id" text,
	"key" text NOT NULL,
	"file_name" text NOT NULL,
	"size" bigint NOT NULL,
	"file_type" text NOT NULL,
	"upload_status" text DEFAULT 'processing' NOT NULL,
	"created_by" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consultation_links" (
	"id" text PRIMARY KEY NOT NULL,
	"consultation_id" text NOT NULL,
	"linked_id" text NOT NULL,
	"created_by" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consultation_members" (
	"consultation_id" text NOT NULL,
	"account_id" text NOT NULL,
	"role" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consultation_members_consultation_id_account_id_pk" PRIMARY KEY("consultation_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "consultation_traces" (
	"id" text PRIMARY KEY NOT NULL,
	"consultation_id" text NOT NULL,
	"action" text NOT NULL,
	"account_id" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consultations" (
	"id" text PRIMARY KEY NOT NULL,
	"group_id" text NOT NULL,
	"source_bucket_id" text NOT NULL,
	"target_bucket_id" text NOT NULL,
	"title" text NOT NULL,
	"status" integer DEFAULT 0 NOT NULL,
	"scheduled_at" timestamp with time zone NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"clinic_impression" text DEFAULT '' NOT NULL,
	"cancel_reason" text DEFAULT '' NOT NULL,
	"patient_name" text NOT NULL,
	"patient_age" text DEFAULT '' NOT NULL,
	"patient_gender" text DEFAULT '' NOT NULL,
	"patient_tel" text DEFAULT '' NOT NULL,
	"patient_email" text DEFAULT '' NOT NULL,
	"contact_hospital" text DEFAULT '' NOT NULL,
	"visit_hospital" text DEFAULT '' NOT NULL,
	"visit_time" timestamp with time zone,
	"visit_department" text DEFAULT '' NOT NULL,
	"visit_reason" text DEFAULT '' NOT NULL,
	"suggestion" text DEFAULT '' NOT NULL,
	"treatment_plan" text DEFAULT '' NOT NULL,
	"result" text DEFAULT '' NOT NULL,
	"result_by" text,
	"result_at" timestamp with time zone,
	"rating_score" integer,
	"rating_comment" text DEFAULT '' NOT NULL,
	"rated_by" text,
	"rated_at" timestamp with time zone,
	"payment_status" integer,
	"origin_exam_id" text,
	"origin_report_id" text,
	"creator_id" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "group_consultation_buckets" (
	"group_id" text NOT NULL,
	"bucket_id" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_consultation_buckets_group_id_bucket_id_pk" PRIMARY KEY("group_id","bucket_id")
);
--> statement-breakpoint
CREATE TABLE "group_rating_configs" (
	"group_id" text PRIMARY KEY NOT NULL,
	"config" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "consultation_cases" ADD CONSTRAINT "consultation_cases_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_cases" ADD CONSTRAINT "consultation_cases_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_exams" ADD CONSTRAINT "consultation_exams_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_exams" ADD CONSTRAINT "consultation_exams_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_exams" ADD CONSTRAINT "consultation_exams_bound_by_accounts_id_fk" FOREIGN KEY ("bound_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_files" ADD CONSTRAINT "consultation_files_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_files" ADD CONSTRAINT "consultation_files_case_id_consultation_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."consultation_cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_files" ADD CONSTRAINT "consultation_files_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_links" ADD CONSTRAINT "consultation_links_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_links" ADD CONSTRAINT "consultation_links_linked_id_consultations_id_fk" FOREIGN KEY ("linked_id") REFERENCES "public"."consultations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_links" ADD CONSTRAINT "consultation_links_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_members" ADD CONSTRAINT "consultation_members_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_members" ADD CONSTRAINT "consultation_members_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_traces" ADD CONSTRAINT "consultation_traces_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_traces" ADD CONSTRAINT "consultation_traces_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_source_bucket_id_buckets_id_fk" FOREIGN KEY ("source_bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_target_bucket_id_buckets_id_fk" FOREIGN KEY ("target_bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_result_by_accounts_id_fk" FOREIGN KEY ("result_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_rated_by_accounts_id_fk" FOREIGN KEY ("rated_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_creator_id_accounts_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_consultation_buckets" ADD CONSTRAINT "group_consultation_buckets_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_consultation_buckets" ADD CONSTRAINT "group_consultation_buckets_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_rating_configs" ADD CONSTRAINT "group_rating_configs_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consultation_cases_consultation_idx" ON "consultation_cases" USING btree ("consultation_id");--> statement-breakpoint
CREATE INDEX "consultation_exams_exam_idx" ON "consultation_exams" USING btree ("exam_id");--> statement-breakpoint
CREATE INDEX "consultation_files_consultation_idx" ON "consultation_files" USING btree ("consultation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "consultation_files_key_idx" ON "consultation_files" USING btree ("key");--> statement-breakpoint
CREATE UNIQUE INDEX "consultation_links_pair_idx" ON "consultation_links" USING btree ("consultation_id","linked_id");--> statement-breakpoint
CREATE INDEX "consultation_members_account_idx" ON "consultation_members" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "consultation_traces_consultation_idx" ON "consultation_traces" USING btree ("consultation_id","at");--> statement-breakpoint
CREATE INDEX "consultations_source_created_idx" ON "consultations" USING btree ("source_bucket_id","created");--> statement-breakpoint
CREATE INDEX "consultations_target_created_idx" ON "consultations" USING btree ("target_bucket_id","created");--> statement-breakpoint
CREATE INDEX "consultations_group_status_idx" ON "consultations" USING btree ("group_id","status");