DROP INDEX "orders_exam_live_idx";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "consultation_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_consultation_live_idx" ON "orders" USING btree ("consultation_id") WHERE "orders"."status" <> 'cancelled';--> statement-breakpoint
CREATE UNIQUE INDEX "orders_exam_live_idx" ON "orders" USING btree ("exam_id") WHERE "orders"."status" <> 'cancelled' and "orders"."type" <> 'consultation';