CREATE TABLE "oidc_grants" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"account_id" text NOT NULL,
	"session_id" text NOT NULL,
	"token_version" integer NOT NULL,
	"redirect_uri" text NOT NULL,
	"scope" text NOT NULL,
	"nonce" text,
	"code_hash" text,
	"code_challenge" text NOT NULL,
	"code_expires_at" timestamp with time zone NOT NULL,
	"code_used_at" timestamp with time zone,
	"refresh_hash" text,
	"previous_refresh_hash" text,
	"refresh_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "oidc_grants" ADD CONSTRAINT "oidc_grants_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "oidc_grants_code_idx" ON "oidc_grants" USING btree ("code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "oidc_grants_refresh_idx" ON "oidc_grants" USING btree ("refresh_hash");--> statement-breakpoint
CREATE INDEX "oidc_grants_previous_refresh_idx" ON "oidc_grants" USING btree ("previous_refresh_hash");--> statement-breakpoint
CREATE INDEX "oidc_grants_session_idx" ON "oidc_grants" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "oidc_grants_created_idx" ON "oidc_grants" USING btree ("created_at");