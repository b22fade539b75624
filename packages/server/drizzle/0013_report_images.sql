CREATE TABLE "report_images" (
	"id" text PRIMARY KEY NOT NULL,
	"report_id" text NOT NULL,
	"bucket_id" text NOT NULL,
	"blob_key" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"desc" text DEFAULT '' NOT NULL,
	"position" integer NOT NULL,
	"is_printed" boolean DEFAULT true NOT NULL,
	"point" text,
	"created_by" text,
	"created_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_images" ADD CONSTRAINT "report_images_report_id_exams_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_images" ADD CONSTRAINT "report_images_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "report_images_position_idx" ON "report_images" USING btree ("report_id","position");