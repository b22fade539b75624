CREATE TABLE "exam_packages" (
	"exam_id" text PRIMARY KEY NOT NULL,
	"blob_key" text NOT NULL,
	"size" bigint NOT NULL,
	"built_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exam_packages" ADD CONSTRAINT "exam_packages_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;