CREATE TABLE "account_notification_settings" (
	"account_id" text PRIMARY KEY NOT NULL,
	"muted_kinds" text[] DEFAULT '{}' NOT NULL,
	"sound" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "learnings" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"blob_key" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"duration_seconds" integer,
	"poster_key" text,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "learnings_blob_key_unique" UNIQUE("blob_key")
);
--> statement-breakpoint
ALTER TABLE "account_notification_settings" ADD CONSTRAINT "account_notification_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learnings" ADD CONSTRAINT "learnings_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "learnings_order_idx" ON "learnings" USING btree ("sort_order","created_at");