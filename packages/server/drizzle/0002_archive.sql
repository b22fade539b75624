CREATE TABLE "exams" (
	"id" text PRIMARY KEY NOT NULL,
	"bucket_id" text NOT NULL,
	"store_uid" text NOT NULL,
	"patient_key_id" text NOT NULL,
	"patient_name" text NOT NULL,
	"patient_id" text NOT NULL,
	"patient_gender" text NOT NULL,
	"patient_dob" text NOT NULL,
	"accession_number" text NOT NULL,
	"study_date" text NOT NULL,
	"study_time" text NOT NULL,
	"study_desc" text NOT NULL,
	"study_id" text NOT NULL,
	"modality" text NOT NULL,
	"body_part" text NOT NULL,
	"institution" text NOT NULL,
	"referring_physician" text NOT NULL,
	"specific_character_set" text NOT NULL,
	"has_image" boolean DEFAULT false NOT NULL,
	"series_count" integer DEFAULT 0 NOT NULL,
	"instance_count" integer DEFAULT 0 NOT NULL,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"source" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_time" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "instances" (
	"id" text PRIMARY KEY NOT NULL,
	"series_id" text NOT NULL,
	"exam_id" text NOT NULL,
	"bucket_id" text NOT NULL,
	"sop_instance_uid" text NOT NULL,
	"sop_class_uid" text NOT NULL,
	"transfer_syntax_uid" text NOT NULL,
	"instance_number" integer,
	"rows" integer,
	"columns" integer,
	"frames" integer DEFAULT 1 NOT NULL,
	"blob_key" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "modalities" (
	"id" text PRIMARY KEY NOT NULL,
	"bucket_id" text NOT NULL,
	"ae_title" text NOT NULL,
	"host" text,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patients" (
	"id" text PRIMARY KEY NOT NULL,
	"bucket_id" text NOT NULL,
	"patient_key" text NOT NULL,
	"patient_id" text NOT NULL,
	"name" text NOT NULL,
	"sex" text NOT NULL,
	"birth_date" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "series" (
	"id" text PRIMARY KEY NOT NULL,
	"exam_id" text NOT NULL,
	"bucket_id" text NOT NULL,
	"series_uid" text NOT NULL,
	"modality" text NOT NULL,
	"series_number" integer,
	"description" text NOT NULL,
	"body_part" text NOT NULL,
	"series_date" text NOT NULL,
	"series_time" text NOT NULL,
	"instance_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exams" ADD CONSTRAINT "exams_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exams" ADD CONSTRAINT "exams_patient_key_id_patients_id_fk" FOREIGN KEY ("patient_key_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_series_id_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "modalities" ADD CONSTRAINT "modalities_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series" ADD CONSTRAINT "series_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "exams_bucket_store_uid_idx" ON "exams" USING btree ("bucket_id","store_uid");--> statement-breakpoint
CREATE INDEX "exams_bucket_created_idx" ON "exams" USING btree ("bucket_id","created");--> statement-breakpoint
CREATE INDEX "exams_patient_id_idx" ON "exams" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "exams_study_date_idx" ON "exams" USING btree ("study_date");--> statement-breakpoint
CREATE INDEX "exams_accession_idx" ON "exams" USING btree ("accession_number");--> statement-breakpoint
CREATE UNIQUE INDEX "instances_bucket_sop_idx" ON "instances" USING btree ("bucket_id","sop_instance_uid");--> statement-breakpoint
CREATE INDEX "instances_series_idx" ON "instances" USING btree ("series_id","instance_number");--> statement-breakpoint
CREATE UNIQUE INDEX "modalities_ae_title_idx" ON "modalities" USING btree ("ae_title");--> statement-breakpoint
CREATE UNIQUE INDEX "patients_bucket_key_idx" ON "patients" USING btree ("bucket_id","patient_key");--> statement-breakpoint
CREATE UNIQUE INDEX "series_exam_uid_idx" ON "series" USING btree ("exam_id","series_uid");--> statement-breakpoint
CREATE INDEX "series_uid_idx" ON "series" USING btree ("series_uid");