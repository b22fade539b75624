ALTER TABLE "payments" ADD COLUMN "package_id" text;--> statement-breakpoint
CREATE INDEX "payments_created_by_idx" ON "payments" USING btree ("created_by","created","id");