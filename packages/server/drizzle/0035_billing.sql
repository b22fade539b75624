CREATE TABLE "credit_charge_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"group_id" text NOT NULL,
	"bucket_id" text,
	"account_id" text,
	"order_id" text,
	"amount_fen" bigint NOT NULL,
	"currency" text DEFAULT 'CNY' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "group_expert_buckets" (
	"group_id" text NOT NULL,
	"bucket_id" text NOT NULL,
	"paid" boolean DEFAULT true NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_expert_buckets_group_id_bucket_id_pk" PRIMARY KEY("group_id","bucket_id")
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"account_id" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer,
	"answer" jsonb,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_account_id_key_pk" PRIMARY KEY("account_id","key")
);
--> statement-breakpoint
CREATE TABLE "invoice_configs" (
	"bucket_id" text PRIMARY KEY NOT NULL,
	"supports_invoice" boolean DEFAULT false NOT NULL,
	"issuer_name" text DEFAULT '' NOT NULL,
	"tax_no" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"bucket_id" text NOT NULL,
	"request_bucket_id" text,
	"status" text DEFAULT 'applied' NOT NULL,
	"title" text NOT NULL,
	"tax_no" text DEFAULT '' NOT NULL,
	"phone" text NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"amount_fen" bigint NOT NULL,
	"currency" text DEFAULT 'CNY' NOT NULL,
	"invoice_no" text,
	"applied_by" text,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL,
	"issued_by" text,
	"issued_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"txn_id" text NOT NULL,
	"account" text NOT NULL,
	"amount_fen" bigint NOT NULL,
	"currency" text DEFAULT 'CNY' NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_txns" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"ref" text NOT NULL,
	"group_id" text,
	"order_id" text,
	"memo" text DEFAULT '' NOT NULL,
	"actor_id" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_apply_forms" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"blob_key" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"created_by" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" text PRIMARY KEY NOT NULL,
	"order_no" text NOT NULL,
	"type" text NOT NULL,
	"group_id" text NOT NULL,
	"request_bucket_id" text NOT NULL,
	"target_bucket_id" text NOT NULL,
	"exam_id" text NOT NULL,
	"target_exam_id" text,
	"report_id" text,
	"product_id" text,
	"product_name" text DEFAULT '' NOT NULL,
	"price_fen" bigint DEFAULT 0 NOT NULL,
	"currency" text DEFAULT 'CNY' NOT NULL,
	"status" text DEFAULT 'applied' NOT NULL,
	"payment_status" integer DEFAULT 0 NOT NULL,
	"channel" text,
	"paid_fen" bigint DEFAULT 0 NOT NULL,
	"refunded_fen" bigint DEFAULT 0 NOT NULL,
	"paid_at" timestamp with time zone,
	"patient_name" text DEFAULT '' NOT NULL,
	"patient_gender" text DEFAULT '' NOT NULL,
	"patient_age" text DEFAULT '' NOT NULL,
	"applicant_id" text,
	"applicant_mobile" text DEFAULT '' NOT NULL,
	"applicant_email" text DEFAULT '' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"deadline_at" timestamp with time zone,
	"reported_at" timestamp with time zone,
	"breached_at" timestamp with time zone,
	"sla_credit_fen" bigint DEFAULT 0 NOT NULL,
	"invoice_status" text DEFAULT 'none' NOT NULL,
	"invoice_id" text,
	"cancelled_at" timestamp with time zone,
	"cancel_reason" text DEFAULT '' NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_no" text NOT NULL,
	"purpose" text DEFAULT 'order' NOT NULL,
	"order_id" text,
	"group_id" text NOT NULL,
	"bucket_id" text,
	"channel" text NOT NULL,
	"amount_fen" bigint NOT NULL,
	"currency" text DEFAULT 'CNY' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"transaction_id" text,
	"code_url" text,
	"expires_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"refunded_fen" bigint DEFAULT 0 NOT NULL,
	"created_by" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" text PRIMARY KEY NOT NULL,
	"bucket_id" text NOT NULL,
	"type" integer DEFAULT 1 NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"modality" text,
	"price_fen" bigint NOT NULL,
	"currency" text DEFAULT 'CNY' NOT NULL,
	"turnaround_minutes" integer,
	"breach_credit_bp" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"refund_no" text NOT NULL,
	"payment_id" text NOT NULL,
	"order_id" text,
	"amount_fen" bigint NOT NULL,
	"currency" text DEFAULT 'CNY' NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"operator_id" text,
	"channel_refund_id" text,
	"idempotency_key" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "credit_charge_tokens" ADD CONSTRAINT "credit_charge_tokens_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_charge_tokens" ADD CONSTRAINT "credit_charge_tokens_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_charge_tokens" ADD CONSTRAINT "credit_charge_tokens_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_charge_tokens" ADD CONSTRAINT "credit_charge_tokens_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_expert_buckets" ADD CONSTRAINT "group_expert_buckets_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_expert_buckets" ADD CONSTRAINT "group_expert_buckets_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_configs" ADD CONSTRAINT "invoice_configs_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_request_bucket_id_buckets_id_fk" FOREIGN KEY ("request_bucket_id") REFERENCES "public"."buckets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_applied_by_accounts_id_fk" FOREIGN KEY ("applied_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_issued_by_accounts_id_fk" FOREIGN KEY ("issued_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_txn_id_ledger_txns_id_fk" FOREIGN KEY ("txn_id") REFERENCES "public"."ledger_txns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_txns" ADD CONSTRAINT "ledger_txns_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_apply_forms" ADD CONSTRAINT "order_apply_forms_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_apply_forms" ADD CONSTRAINT "order_apply_forms_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_request_bucket_id_buckets_id_fk" FOREIGN KEY ("request_bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_target_bucket_id_buckets_id_fk" FOREIGN KEY ("target_bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_applicant_id_accounts_id_fk" FOREIGN KEY ("applicant_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_bucket_id_buckets_id_fk" FOREIGN KEY ("bucket_id") REFERENCES "public"."buckets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_operator_id_accounts_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created");--> statement-breakpoint
CREATE INDEX "invoices_bucket_idx" ON "invoices" USING btree ("bucket_id","applied_at");--> statement-breakpoint
CREATE INDEX "invoices_request_bucket_idx" ON "invoices" USING btree ("request_bucket_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_account_idx" ON "ledger_entries" USING btree ("account","created","id");--> statement-breakpoint
CREATE INDEX "ledger_entries_txn_idx" ON "ledger_entries" USING btree ("txn_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_txns_kind_ref_idx" ON "ledger_txns" USING btree ("kind","ref");--> statement-breakpoint
CREATE INDEX "ledger_txns_order_idx" ON "ledger_txns" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_apply_forms_order_idx" ON "order_apply_forms" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_order_no_idx" ON "orders" USING btree ("order_no");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_exam_live_idx" ON "orders" USING btree ("exam_id") WHERE "orders"."status" <> 'cancelled';--> statement-breakpoint
CREATE INDEX "orders_request_bucket_created_idx" ON "orders" USING btree ("request_bucket_id","created","id");--> statement-breakpoint
CREATE INDEX "orders_target_bucket_created_idx" ON "orders" USING btree ("target_bucket_id","created","id");--> statement-breakpoint
CREATE INDEX "orders_target_exam_idx" ON "orders" USING btree ("target_exam_id");--> statement-breakpoint
CREATE INDEX "orders_deadline_idx" ON "orders" USING btree ("deadline_at") WHERE "orders"."breached_at" is null and "orders"."status" <> 'cancelled';--> statement-breakpoint
CREATE UNIQUE INDEX "payments_payment_no_idx" ON "payments" USING btree ("payment_no");--> statement-breakpoint
CREATE INDEX "payments_order_idx" ON "payments" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "payments_group_created_idx" ON "payments" USING btree ("group_id","created","id");--> statement-breakpoint
CREATE INDEX "payments_bucket_created_idx" ON "payments" USING btree ("bucket_id","created","id");--> statement-breakpoint
CREATE INDEX "products_bucket_type_idx" ON "products" USING btree ("bucket_id","type");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_refund_no_idx" ON "refunds" USING btree ("refund_no");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_idempotency_idx" ON "refunds" USING btree ("payment_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "refunds_payment_idx" ON "refunds" USING btree ("payment_id");