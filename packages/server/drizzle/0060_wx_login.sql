CREATE TABLE "wx_identities" (
	"subject" text PRIMARY KEY NOT NULL,
	"openid" text NOT NULL,
	"unionid" text,
	"account_id" text NOT NULL,
	"nickname" text DEFAULT '' NOT NULL,
	"headimgurl" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "wx_login_attempts" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"redirect" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wx_login_tickets" (
	"ticket_hash" text PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"openid" text NOT NULL,
	"unionid" text,
	"nickname" text DEFAULT '' NOT NULL,
	"headimgurl" text DEFAULT '' NOT NULL,
	"redirect" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "wx_identities" ADD CONSTRAINT "wx_identities_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "wx_identities_account_idx" ON "wx_identities" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "wx_login_attempts_created_idx" ON "wx_login_attempts" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "wx_login_tickets_created_idx" ON "wx_login_tickets" USING btree ("created_at");