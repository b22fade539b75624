CREATE TABLE "device_groups" (
	"id" text PRIMARY KEY NOT NULL,
	"bucket_id" text NOT NULL,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "modality_dictionary" (
	"id" text PRIMARY KEY NOT NULL,
	"bucket_id" text NOT NULL,
	"modality_code" text NOT NULL,
	"display_name" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "procedures" (
	"id" text PRIMARY KEY NOT NULL,
	"bucket_id" text NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"en_name" text DEFAULT '' NOT NULL,
	"price" integer DEFAULT 0 NOT NULL,
	"scan_tech" text DEFAULT '' NOT NULL,
	"is_enhanced" boolean DEFAULT false NOT NULL,
	"body_part_count" integer DEFAULT 1 NOT NULL,
	"modality" text NOT NULL,
	"ae_title" text DEFAULT '' NOT NULL,
	"device_group_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"report_during_exam" boolean DEFAULT false NOT NULL,
	"show_local_video" boolean DEFAULT false NOT NULL,
	"imaging_optional" boolean DEFAULT false NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registrations" (
	"id" text PRIMARY KEY NOT NULL,
	"group_id" text NOT NULL,
	"bucket_id" text NOT NULL,
	"patient_ref" text NOT NULL,
	"source" text DEFAULT 'internal' NOT NULL,
	"pass_code" text NOT NULL,
	"patient_source" text NOT NULL,
	"inpatient_id" text DEFAULT '' NOT NULL,
	"bed_num" text DEFAULT '' NOT NULL,
	"outpatient_id" text DEFAULT '' NOT NULL,
	"physical_exam_id" text DEFAULT '' NOT NULL,
	"apply_dept" text DEFAULT '' NOT NULL,
	"order_placer" text DEFAULT '' NOT NULL,
	"clinic_impression" text DEFAULT '' NOT NULL,
	"urgent" boolean DEFAULT false NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"weight" real,
	"height" real,
	"created_by" text,
	"version" integer DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registry_patients" (
	"id" text PRIMARY KEY NOT NULL,
	"group_id" text NOT NULL,
	"patient_id" text NOT NULL,
	"name" text NOT NULL,
	"name_pinyin" text DEFAULT '' NOT NULL,
	"gender" text NOT NULL,
	"birth_date" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"id_card" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"animal" jsonb,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scheduled_exams" (
	"id" text PRIMARY KEY NOT NULL,
	"registration_id" text NOT NULL,
	"bucket_id" text NOT NULL,
	"status" text NOT NULL,
	"procedure_id" text,
	"procedure_name" text DEFAULT '' NOT NULL,
	"procedure_code" text DEFAULT '' NOT NULL,
	"modality" text NOT NULL,
	"body_part" text DEFAULT '' NOT NULL,
	"study_desc" text DEFAULT '' NOT NULL,
	"body_part_count" integer,
	"imaging_optional" boolean DEFAULT false NOT NULL,
	"device_id" text,
	"station_ae_title" text DEFAULT '' NOT NULL,
	"scheduled_date" text DEFAULT '' NOT NULL,
	"scheduled_time" text DEFAULT '' NOT NULL,
	"accession_number" text NOT NULL,
	"study_instance_uid" text NOT NULL,
	"requested_procedure_id" text NOT NULL,
	"sps_id" text NOT NULL,
	"exam_id" text,
	"arrived_at" timestamp with time zone,
	"arrived_by" text,
	"started_at" timestamp with time zone,
	"performed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancel_reason" text DEFAULT '' NOT NULL,
	"mpps_uid" text,
	"mpps_status" text DEFAULT '' NOT NULL,
	"discontinued_reason" text DEFAULT '' NOT NULL,
	"extensions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "modalities" ADD COLUMN "port" integer;--> statement-breakpoint
ALTER TABLE "modalities" ADD COLUMN "modality" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "modalities" ADD COLUMN "room" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "modalities" ADD COLUMN "device_group_id" text;--> statement-breakpoint
ALTER TABLE "modalities" ADD COLUMN "charset" text DEFAULT 'ISO_IR 192' NOT NULL;--> statement-breakpoint
ALTER TABLE "device_groups" ADD CONSTRAINT "device_groups_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "modality_dictionary" ADD CONSTRAINT "modality_dictionary_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "procedures" ADD CONSTRAINT "procedures_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_patient_ref_registry_patients_id_fk" FOREIGN KEY ("patient_ref") REFERENCES "public"."registry_patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registry_patients" ADD CONSTRAINT "registry_patients_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_exams" ADD CONSTRAINT "scheduled_exams_registration_id_registrations_id_fk" FOREIGN KEY ("registration_id") REFERENCES "public"."registrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_exams" ADD CONSTRAINT "scheduled_exams_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_exams" ADD CONSTRAINT "scheduled_exams_procedure_id_procedures_id_fk" FOREIGN KEY ("procedure_id") REFERENCES "public"."procedures"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_exams" ADD CONSTRAINT "scheduled_exams_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_exams" ADD CONSTRAINT "scheduled_exams_arrived_by_accounts_id_fk" FOREIGN KEY ("arrived_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_groups_bucket_name_idx" ON "device_groups" USING btree ("bucket_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "modality_dictionary_code_idx" ON "modality_dictionary" USING btree ("bucket_id","modality_code");--> statement-breakpoint
CREATE UNIQUE INDEX "procedures_bucket_code_idx" ON "procedures" USING btree ("bucket_id",lower("code"));--> statement-breakpoint
CREATE UNIQUE INDEX "registrations_pass_code_idx" ON "registrations" USING btree ("pass_code");--> statement-breakpoint
CREATE INDEX "registrations_patient_idx" ON "registrations" USING btree ("patient_ref");--> statement-breakpoint
CREATE UNIQUE INDEX "registry_patients_group_pid_idx" ON "registry_patients" USING btree ("group_id","patient_id");--> statement-breakpoint
CREATE INDEX "registry_patients_group_name_idx" ON "registry_patients" USING btree ("group_id","name","birth_date");--> statement-breakpoint
CREATE INDEX "scheduled_exams_bucket_created_idx" ON "scheduled_exams" USING btree ("bucket_id","created" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "scheduled_exams_bucket_date_idx" ON "scheduled_exams" USING btree ("bucket_id","scheduled_date","status");--> statement-breakpoint
CREATE INDEX "scheduled_exams_registration_idx" ON "scheduled_exams" USING btree ("registration_id");--> statement-breakpoint
CREATE UNIQUE INDEX "scheduled_exams_accession_idx" ON "scheduled_exams" USING btree ("bucket_id","accession_number");--> statement-breakpoint
CREATE UNIQUE INDEX "scheduled_exams_study_uid_idx" ON "scheduled_exams" USING btree ("study_instance_uid");--> statement-breakpoint
CREATE INDEX "scheduled_exams_exam_idx" ON "scheduled_exams" USING btree ("exam_id") WHERE "scheduled_exams"."exam_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "scheduled_exams_mpps_idx" ON "scheduled_exams" USING btree ("mpps_uid") WHERE "scheduled_exams"."mpps_uid" is not null;