CREATE TABLE "exam_attachments" (
	"id" text PRIMARY KEY NOT NULL,
	"exam_id" text NOT NULL,
	"bucket_id" text NOT NULL,
	"kind" text NOT NULL,
	"blob_key" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"uploaded_by" text,
	"source" text NOT NULL,
	"upload_code_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "upload_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"purpose" text NOT NULL,
	"account_id" text NOT NULL,
	"exam_id" text,
	"bucket_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exam_attachments" ADD CONSTRAINT "exam_attachments_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_attachments" ADD CONSTRAINT "exam_attachments_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_attachments" ADD CONSTRAINT "exam_attachments_uploaded_by_accounts_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_attachments" ADD CONSTRAINT "exam_attachments_upload_code_id_upload_codes_id_fk" FOREIGN KEY ("upload_code_id") REFERENCES "public"."upload_codes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_codes" ADD CONSTRAINT "upload_codes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_codes" ADD CONSTRAINT "upload_codes_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_codes" ADD CONSTRAINT "upload_codes_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "exam_attachments_blob_key_idx" ON "exam_attachments" USING btree ("blob_key");--> statement-breakpoint
CREATE INDEX "exam_attachments_exam_idx" ON "exam_attachments" USING btree ("exam_id","created_at");--> statement-breakpoint
CREATE INDEX "exam_attachments_code_idx" ON "exam_attachments" USING btree ("upload_code_id");--> statement-breakpoint
CREATE UNIQUE INDEX "upload_codes_hash_idx" ON "upload_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "upload_codes_account_idx" ON "upload_codes" USING btree ("account_id");