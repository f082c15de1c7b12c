CREATE SEQUENCE "public"."application_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE SEQUENCE "public"."payment_order_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "application_coinsurer" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"application_id" bigint NOT NULL,
	"insurer_code" text NOT NULL,
	"lead" boolean DEFAULT false NOT NULL,
	"share" integer NOT NULL,
	"premium_fen" bigint DEFAULT 0 NOT NULL,
	"prevention_fee_fen" bigint DEFAULT 0 NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "application_coinsurer_share" CHECK ("application_coinsurer"."share" between 1 and 100000000)
);
--> statement-breakpoint
CREATE TABLE "application_event" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"application_id" bigint NOT NULL,
	"action" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor_id" bigint,
	"actor_name" text,
	"opinion" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "application" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"product_id" bigint NOT NULL,
	"channel" text NOT NULL,
	"policyholder_type" integer DEFAULT 1 NOT NULL,
	"customer_id" bigint NOT NULL,
	"insured_name" text,
	"insured_uscc" text,
	"insured_address" text,
	"contact_name" text,
	"contact_phone" text,
	"contact_email" text,
	"special_terms" text,
	"start_date" date,
	"end_date" date,
	"industry_section" text,
	"industry_division" text,
	"headcount" integer,
	"payroll_fen" bigint,
	"per_person_limit_fen" bigint,
	"coverages" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"factors" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"guarantee_amount_fen" bigint,
	"project_name" text,
	"project_address" text,
	"project_cost_fen" bigint,
	"contractor" text,
	"high_risk" boolean DEFAULT false NOT NULL,
	"quote" jsonb,
	"rate_table_id" bigint,
	"premium_fen" bigint,
	"prevention_ratio" integer,
	"prevention_fee_fen" bigint,
	"commission_rate" integer,
	"agent_id" bigint,
	"owner_id" bigint,
	"status" text DEFAULT 'DRAFT' NOT NULL,
	"review_opinion" text,
	"submitted_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "application_status_value" CHECK ("application"."status" in ('DRAFT', 'PENDING_REVIEW', 'RETURNED', 'DECLINED', 'PENDING_PAYMENT', 'PAID', 'PAYMENT_EXPIRED', 'CANCELLED', 'ISSUED', 'IN_FORCE', 'EXPIRED')),
	CONSTRAINT "application_channel" CHECK ("application"."channel" in ('enterprise', 'agent', 'project', 'zhenjiang')),
	CONSTRAINT "application_policyholder_type" CHECK ("application"."policyholder_type" in (1, 2)),
	CONSTRAINT "application_prevention_ratio" CHECK ("application"."prevention_ratio" between 0 and 21000000),
	CONSTRAINT "application_commission" CHECK ("application"."commission_rate" between 0 and 5000000),
	CONSTRAINT "application_money" CHECK ("application"."premium_fen" >= 0 and "application"."prevention_fee_fen" >= 0),
	CONSTRAINT "application_period" CHECK ("application"."end_date" > "application"."start_date")
);
--> statement-breakpoint
CREATE TABLE "payment_order" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"application_id" bigint NOT NULL,
	"amount_fen" bigint NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_order_amount" CHECK ("payment_order"."amount_fen" >= 0)
);
--> statement-breakpoint
ALTER TABLE "application_coinsurer" ADD CONSTRAINT "application_coinsurer_application_id_application_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."application"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_event" ADD CONSTRAINT "application_event_application_id_application_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."application"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_event" ADD CONSTRAINT "application_event_actor_id_app_user_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application" ADD CONSTRAINT "application_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application" ADD CONSTRAINT "application_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application" ADD CONSTRAINT "application_agent_id_app_user_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application" ADD CONSTRAINT "application_owner_id_app_user_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_order" ADD CONSTRAINT "payment_order_application_id_application_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."application"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "application_coinsurer_insurer" ON "application_coinsurer" USING btree ("application_id","insurer_code");--> statement-breakpoint
CREATE UNIQUE INDEX "application_coinsurer_one_lead" ON "application_coinsurer" USING btree ("application_id") WHERE "application_coinsurer"."lead";--> statement-breakpoint
CREATE INDEX "application_event_application" ON "application_event" USING btree ("application_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "application_number" ON "application" USING btree ("number");--> statement-breakpoint
CREATE INDEX "application_customer" ON "application" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "application_owner" ON "application" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "application_agent" ON "application" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "application_status_created" ON "application" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_order_number" ON "payment_order" USING btree ("number");--> statement-breakpoint
CREATE INDEX "payment_order_application" ON "payment_order" USING btree ("application_id");--> statement-breakpoint
-- The application timeline is append-only: its rows are never changed (they go only with their application).
CREATE OR REPLACE FUNCTION application_event_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'application_event is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER application_event_no_update
  BEFORE UPDATE ON "application_event"
  FOR EACH ROW EXECUTE FUNCTION application_event_append_only();
