CREATE SEQUENCE "public"."annual_order_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE SEQUENCE "public"."secondary_order_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "annual_order" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"customer_id" bigint NOT NULL,
	"product_id" bigint NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"quota_fen" bigint NOT NULL,
	"consumed_fen" bigint DEFAULT 0 NOT NULL,
	"note" text,
	"created_by" bigint,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "annual_order_quota" CHECK ("annual_order"."quota_fen" > 0 and "annual_order"."consumed_fen" between 0 and "annual_order"."quota_fen"),
	CONSTRAINT "annual_order_period" CHECK ("annual_order"."end_date" > "annual_order"."start_date")
);
--> statement-breakpoint
CREATE TABLE "secondary_order" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"annual_order_id" bigint NOT NULL,
	"kind" integer DEFAULT 1 NOT NULL,
	"project_name" text NOT NULL,
	"project_address" text NOT NULL,
	"project_cost_fen" bigint NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"high_risk" boolean DEFAULT false NOT NULL,
	"headcount" integer,
	"quote" jsonb NOT NULL,
	"rate_table_id" bigint NOT NULL,
	"premium_fen" bigint NOT NULL,
	"reserved_fen" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'DRAFT' NOT NULL,
	"review_opinion" text,
	"owner_id" bigint,
	"agent_id" bigint,
	"application_id" bigint,
	"submitted_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "secondary_order_status" CHECK ("secondary_order"."status" in ('DRAFT', 'PENDING_REVIEW', 'RETURNED', 'APPROVED', 'REJECTED', 'CANCELLED')),
	CONSTRAINT "secondary_order_kind" CHECK ("secondary_order"."kind" in (1, 2)),
	CONSTRAINT "secondary_order_money" CHECK ("secondary_order"."project_cost_fen" > 0 and "secondary_order"."premium_fen" >= 0 and "secondary_order"."reserved_fen" >= 0),
	CONSTRAINT "secondary_order_period" CHECK ("secondary_order"."end_date" > "secondary_order"."start_date")
);
--> statement-breakpoint
ALTER TABLE "annual_order" ADD CONSTRAINT "annual_order_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annual_order" ADD CONSTRAINT "annual_order_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annual_order" ADD CONSTRAINT "annual_order_created_by_app_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "secondary_order" ADD CONSTRAINT "secondary_order_annual_order_id_annual_order_id_fk" FOREIGN KEY ("annual_order_id") REFERENCES "public"."annual_order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "secondary_order" ADD CONSTRAINT "secondary_order_owner_id_app_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "secondary_order" ADD CONSTRAINT "secondary_order_agent_id_app_user_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "secondary_order" ADD CONSTRAINT "secondary_order_application_id_application_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."application"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "annual_order_number" ON "annual_order" USING btree ("number");--> statement-breakpoint
CREATE INDEX "annual_order_customer" ON "annual_order" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "annual_order_created_by" ON "annual_order" USING btree ("created_by");--> statement-breakpoint
CREATE UNIQUE INDEX "secondary_order_number" ON "secondary_order" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "secondary_order_application" ON "secondary_order" USING btree ("application_id");--> statement-breakpoint
CREATE INDEX "secondary_order_annual" ON "secondary_order" USING btree ("annual_order_id","status");--> statement-breakpoint
CREATE INDEX "secondary_order_owner" ON "secondary_order" USING btree ("owner_id");