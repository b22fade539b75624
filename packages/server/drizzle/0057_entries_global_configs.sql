CREATE TABLE "entry_nonces" (
	"group_id" text NOT NULL,
	"nonce" text NOT NULL,
	"used_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "entry_nonces_group_id_nonce_pk" PRIMARY KEY("group_id","nonce")
);
--> statement-breakpoint
CREATE TABLE "global_configs" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "entry_nonces" ADD CONSTRAINT "entry_nonces_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "global_configs" ADD CONSTRAINT "global_configs_updated_by_accounts_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "entry_nonces_expires_idx" ON "entry_nonces" USING btree ("expires_at");