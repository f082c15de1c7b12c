CREATE TABLE "coverage" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_id" bigint NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"per_person_limit_fen" bigint,
	"per_accident_limit_fen" bigint,
	"aggregate_limit_fen" bigint,
	"deductible_fen" bigint DEFAULT 0 NOT NULL,
	"mandatory" boolean DEFAULT false NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"uscc" text NOT NULL,
	"name" text NOT NULL,
	"industry_section" text NOT NULL,
	"industry_division" text NOT NULL,
	"region" text NOT NULL,
	"address" text NOT NULL,
	"legal_representative" text NOT NULL,
	"contact_name" text NOT NULL,
	"phone" text NOT NULL,
	"headcount" integer NOT NULL,
	"licence_no" text,
	"ca_fingerprint" text,
	"owner_id" bigint,
	"created_by" bigint,
	"review_status" text DEFAULT 'pending' NOT NULL,
	"review_opinion" text,
	"reviewed_at" timestamp with time zone,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_review_status_value" CHECK ("customer"."review_status" in ('pending', 'approved', 'returned', 'rejected')),
	CONSTRAINT "customer_headcount" CHECK ("customer"."headcount" between 0 and 999999)
);
--> statement-breakpoint
CREATE TABLE "product" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"product_class" text NOT NULL,
	"clause_version" text NOT NULL,
	"region" text NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date NOT NULL,
	"allows_coinsurance" boolean DEFAULT false NOT NULL,
	"prevention_ratio_min" integer NOT NULL,
	"prevention_ratio_max" integer NOT NULL,
	"commission_cap" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"description" text,
	"created_by" bigint,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_prevention_ratio" CHECK (0 <= "product"."prevention_ratio_min" and "product"."prevention_ratio_min" <= "product"."prevention_ratio_max" and "product"."prevention_ratio_max" <= 21000000),
	CONSTRAINT "product_commission_cap" CHECK ("product"."commission_cap" between 0 and 5000000),
	CONSTRAINT "product_validity" CHECK ("product"."valid_from" <= "product"."valid_to")
);
--> statement-breakpoint
CREATE TABLE "rate_table_row" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"rate_table_id" bigint NOT NULL,
	"coverage_type" text,
	"industry" text,
	"limit_tier_fen" bigint,
	"cost_band_up_to_fen" bigint,
	"rate" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rate_table_row_rate" CHECK ("rate_table_row"."rate" between 0 and 10000000)
);
--> statement-breakpoint
CREATE TABLE "rate_table" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_id" bigint NOT NULL,
	"version_no" integer NOT NULL,
	"effective_date" date NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"high_risk_loading" integer,
	"factors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"note" text,
	"activated_at" timestamp with time zone,
	"activated_by" bigint,
	"created_by" bigint,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rate_table_status" CHECK ("rate_table"."status" in ('draft', 'active', 'retired'))
);
--> statement-breakpoint
CREATE TABLE "review_task" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"subject_id" bigint NOT NULL,
	"title" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"submitted_by" bigint,
	"assignee_id" bigint,
	"decision" text,
	"opinion" text,
	"decided_by" bigint,
	"decided_at" timestamp with time zone,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_task_status" CHECK ("review_task"."status" in ('open', 'done')),
	CONSTRAINT "review_task_decision" CHECK (("review_task"."status" = 'open' and "review_task"."decision" is null) or ("review_task"."status" = 'done' and "review_task"."decision" in ('approve', 'return', 'reject')))
);
--> statement-breakpoint
ALTER TABLE "coverage" ADD CONSTRAINT "coverage_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer" ADD CONSTRAINT "customer_owner_id_app_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer" ADD CONSTRAINT "customer_created_by_app_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rate_table_row" ADD CONSTRAINT "rate_table_row_rate_table_id_rate_table_id_fk" FOREIGN KEY ("rate_table_id") REFERENCES "public"."rate_table"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rate_table" ADD CONSTRAINT "rate_table_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_task" ADD CONSTRAINT "review_task_submitted_by_app_user_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_task" ADD CONSTRAINT "review_task_assignee_id_app_user_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_task" ADD CONSTRAINT "review_task_decided_by_app_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "coverage_product_type" ON "coverage" USING btree ("product_id","type");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_uscc" ON "customer" USING btree ("uscc");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_ca_fingerprint" ON "customer" USING btree ("ca_fingerprint") WHERE "customer"."ca_fingerprint" is not null;--> statement-breakpoint
CREATE INDEX "customer_owner" ON "customer" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "customer_created_by" ON "customer" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "customer_review_status" ON "customer" USING btree ("review_status");--> statement-breakpoint
CREATE INDEX "customer_created" ON "customer" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "product_code" ON "product" USING btree ("code");--> statement-breakpoint
CREATE INDEX "product_class_region" ON "product" USING btree ("product_class","region");--> statement-breakpoint
CREATE INDEX "rate_table_row_table" ON "rate_table_row" USING btree ("rate_table_id");--> statement-breakpoint
CREATE UNIQUE INDEX "rate_table_product_version" ON "rate_table" USING btree ("product_id","version_no");--> statement-breakpoint
CREATE UNIQUE INDEX "rate_table_one_active" ON "rate_table" USING btree ("product_id") WHERE "rate_table"."status" = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "review_task_one_open" ON "review_task" USING btree ("kind","subject_id") WHERE "review_task"."status" = 'open';--> statement-breakpoint
CREATE INDEX "review_task_queue" ON "review_task" USING btree ("status","kind","created_at");--> statement-breakpoint
CREATE INDEX "review_task_subject" ON "review_task" USING btree ("kind","subject_id");