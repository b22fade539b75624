CREATE TABLE "sms_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"endpoint" text,
	"region" text,
	"sign_name" text,
	"template_reset_password" text,
	"template_bind_mobile" text,
	"access_key_id" text,
	"access_key_secret_sealed" text,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
ALTER TABLE "sms_accounts" ADD CONSTRAINT "sms_accounts_updated_by_accounts_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;