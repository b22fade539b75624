CREATE TABLE "sso_attempts" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"group_id" text NOT NULL,
	"code_verifier" text NOT NULL,
	"nonce" text NOT NULL,
	"redirect" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_identities" (
	"group_id" text NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"account_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp with time zone,
	CONSTRAINT "sso_identities_group_id_issuer_subject_pk" PRIMARY KEY("group_id","issuer","subject")
);
--> statement-breakpoint
CREATE TABLE "sso_providers" (
	"group_id" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret_sealed" text NOT NULL,
	"scopes" text DEFAULT 'openid profile' NOT NULL,
	"username_claim" text DEFAULT 'preferred_username' NOT NULL,
	"name_claim" text DEFAULT 'name' NOT NULL,
	"mobile_claim" text DEFAULT '' NOT NULL,
	"allow_create" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sso_attempts" ADD CONSTRAINT "sso_attempts_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_identities" ADD CONSTRAINT "sso_identities_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_identities" ADD CONSTRAINT "sso_identities_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_providers" ADD CONSTRAINT "sso_providers_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sso_attempts_created_idx" ON "sso_attempts" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "sso_identities_account_idx" ON "sso_identities" USING btree ("account_id");