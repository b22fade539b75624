CREATE TABLE "queue_day_counters" (
	"queue_type_id" text NOT NULL,
	"day" text NOT NULL,
	"last_no" integer NOT NULL,
	CONSTRAINT "queue_day_counters_queue_type_id_day_pk" PRIMARY KEY("queue_type_id","day")
);
--> statement-breakpoint
ALTER TABLE "queue_day_counters" ADD CONSTRAINT "queue_day_counters_queue_type_id_queue_types_id_fk" FOREIGN KEY ("queue_type_id") REFERENCES "public"."queue_types"("id") ON DELETE cascade ON UPDATE no action;