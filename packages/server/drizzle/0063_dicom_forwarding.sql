CREATE TABLE "dicom_sends" (
	"id" text PRIMARY KEY NOT NULL,
	"bucket_id" text NOT NULL,
	"exam_id" text NOT NULL,
	"destination_id" text,
	"destination_ae" text NOT NULL,
	"series_uids" jsonb,
	"trigger" text NOT NULL,
	"rule_id" text,
	"requested_by" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"failed_instances" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL,
	"finished" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "forwarding_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"bucket_id" text NOT NULL,
	"name" text NOT NULL,
	"destination_id" text NOT NULL,
	"modality" text DEFAULT '' NOT NULL,
	"source_ae" text DEFAULT '' NOT NULL,
	"body_part" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dicom_sends" ADD CONSTRAINT "dicom_sends_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dicom_sends" ADD CONSTRAINT "dicom_sends_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dicom_sends" ADD CONSTRAINT "dicom_sends_destination_id_modalities_id_fk" FOREIGN KEY ("destination_id") REFERENCES "public"."modalities"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dicom_sends" ADD CONSTRAINT "dicom_sends_rule_id_forwarding_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."forwarding_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forwarding_rules" ADD CONSTRAINT "forwarding_rules_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forwarding_rules" ADD CONSTRAINT "forwarding_rules_destination_id_modalities_id_fk" FOREIGN KEY ("destination_id") REFERENCES "public"."modalities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dicom_sends_exam_idx" ON "dicom_sends" USING btree ("exam_id","created");--> statement-breakpoint
CREATE INDEX "dicom_sends_bucket_idx" ON "dicom_sends" USING btree ("bucket_id","created");--> statement-breakpoint
CREATE INDEX "forwarding_rules_bucket_idx" ON "forwarding_rules" USING btree ("bucket_id");