CREATE TABLE "assign_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"group_id" text NOT NULL,
	"name" text NOT NULL,
	"bucket_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"doctor_id" text,
	"modality" text,
	"member_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bucket_dictionary" (
	"id" text PRIMARY KEY NOT NULL,
	"bucket_id" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bucket_members" (
	"bucket_id" text NOT NULL,
	"account_id" text NOT NULL,
	"access_level" text DEFAULT 'member' NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "buckets" (
	"id" text PRIMARY KEY NOT NULL,
	"group_id" text NOT NULL,
	"name" text NOT NULL,
	"code" text,
	"logo" text,
	"is_private" boolean DEFAULT false NOT NULL,
	"focused" boolean DEFAULT false NOT NULL,
	"free_efilm" boolean DEFAULT false NOT NULL,
	"upload_token" text,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "color_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"group_id" text NOT NULL,
	"name" text NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"fore_color" text NOT NULL,
	"background_color" text NOT NULL,
	"match_field" text NOT NULL,
	"value" text NOT NULL,
	"index" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "group_members" (
	"group_id" text NOT NULL,
	"account_id" text NOT NULL,
	"access_level" smallint DEFAULT 0 NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "groups" (
	"id" text PRIMARY KEY NOT NULL,
	"display_name" text NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "role_mappings" (
	"role_id" text NOT NULL,
	"account_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" text PRIMARY KEY NOT NULL,
	"bucket_id" text NOT NULL,
	"name" text NOT NULL,
	"actions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assign_rules" ADD CONSTRAINT "assign_rules_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assign_rules" ADD CONSTRAINT "assign_rules_doctor_id_accounts_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bucket_dictionary" ADD CONSTRAINT "bucket_dictionary_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bucket_members" ADD CONSTRAINT "bucket_members_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bucket_members" ADD CONSTRAINT "bucket_members_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buckets" ADD CONSTRAINT "buckets_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "color_rules" ADD CONSTRAINT "color_rules_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_mappings" ADD CONSTRAINT "role_mappings_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_mappings" ADD CONSTRAINT "role_mappings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assign_rules_group_idx" ON "assign_rules" USING btree ("group_id","priority");--> statement-breakpoint
CREATE INDEX "bucket_dictionary_bucket_kind_idx" ON "bucket_dictionary" USING btree ("bucket_id","kind","sort");--> statement-breakpoint
CREATE UNIQUE INDEX "bucket_dictionary_name_idx" ON "bucket_dictionary" USING btree ("bucket_id","kind",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "bucket_members_pk" ON "bucket_members" USING btree ("bucket_id","account_id");--> statement-breakpoint
CREATE INDEX "bucket_members_account_idx" ON "bucket_members" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "buckets_group_idx" ON "buckets" USING btree ("group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "buckets_code_lower_idx" ON "buckets" USING btree (lower("code"));--> statement-breakpoint
CREATE INDEX "color_rules_group_idx" ON "color_rules" USING btree ("group_id","priority");--> statement-breakpoint
CREATE UNIQUE INDEX "group_members_pk" ON "group_members" USING btree ("group_id","account_id");--> statement-breakpoint
CREATE INDEX "group_members_account_idx" ON "group_members" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "groups_display_name_lower_idx" ON "groups" USING btree (lower("display_name"));--> statement-breakpoint
CREATE UNIQUE INDEX "role_mappings_pk" ON "role_mappings" USING btree ("role_id","account_id");--> statement-breakpoint
CREATE INDEX "role_mappings_account_idx" ON "role_mappings" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "roles_bucket_name_idx" ON "roles" USING btree ("bucket_id",lower("name"));