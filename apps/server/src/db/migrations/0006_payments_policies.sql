CREATE SEQUENCE "public"."policy_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "payment_notification" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"order_no" text,
	"trade_no" text,
	"amount_fen" bigint,
	"raw_body" text NOT NULL,
	"headers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"signature_valid" boolean NOT NULL,
	"outcome" text NOT NULL,
	"message" text,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"application_id" bigint NOT NULL,
	"provider" text NOT NULL,
	"trade_no" text NOT NULL,
	"amount_fen" bigint NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"notification_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_source" CHECK ("payment"."source" in ('notify', 'query')),
	CONSTRAINT "payment_amount" CHECK ("payment"."amount_fen" >= 0)
);
--> statement-breakpoint
CREATE TABLE "policy" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"application_id" bigint NOT NULL,
	"product_id" bigint NOT NULL,
	"customer_id" bigint NOT NULL,
	"payment_id" bigint,
	"holder_name" text NOT NULL,
	"holder_uscc" text NOT NULL,
	"insured_name" text NOT NULL,
	"insured_uscc" text,
	"insured_address" text,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"premium_fen" bigint NOT NULL,
	"prevention_ratio" integer,
	"prevention_fee_fen" bigint DEFAULT 0 NOT NULL,
	"coverages" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"headcount" integer,
	"project_name" text,
	"special_terms" text,
	"status" text DEFAULT 'ISSUED' NOT NULL,
	"verification_code" text NOT NULL,
	"pdf_sha256" text NOT NULL,
	"pdf_size" integer NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "policy_status" CHECK ("policy"."status" in ('ISSUED', 'IN_FORCE', 'EXPIRED')),
	CONSTRAINT "policy_money" CHECK ("policy"."premium_fen" >= 0 and "policy"."prevention_fee_fen" >= 0),
	CONSTRAINT "policy_period" CHECK ("policy"."end_date" > "policy"."start_date")
);
--> statement-breakpoint
CREATE TABLE "policy_coinsurer" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"policy_id" bigint NOT NULL,
	"insurer_code" text NOT NULL,
	"insurer_name" text,
	"lead" boolean DEFAULT false NOT NULL,
	"share" integer NOT NULL,
	"premium_fen" bigint NOT NULL,
	"prevention_fee_fen" bigint NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "policy_coinsurer_share" CHECK ("policy_coinsurer"."share" between 1 and 100000000)
);
--> statement-breakpoint
CREATE TABLE "policy_document" (
	"policy_id" bigint PRIMARY KEY NOT NULL,
	"content" "bytea" NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_charge" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"charge_no" text NOT NULL,
	"merchant_id" text NOT NULL,
	"order_no" text NOT NULL,
	"amount_fen" bigint NOT NULL,
	"subject" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"trade_no" text,
	"paid_at" timestamp with time zone,
	"notify_attempts" integer DEFAULT 0 NOT NULL,
	"last_notify_status" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_charge_status" CHECK ("sandbox_charge"."status" in ('PENDING', 'PAID', 'CLOSED'))
);
--> statement-breakpoint
ALTER TABLE "payment_order" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "payment_order" ADD COLUMN "charge_no" text;--> statement-breakpoint
ALTER TABLE "payment_order" ADD COLUMN "cashier_url" text;--> statement-breakpoint
ALTER TABLE "payment_order" ADD COLUMN "charged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_order" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_order" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment" ADD CONSTRAINT "payment_order_id_payment_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."payment_order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment" ADD CONSTRAINT "payment_application_id_application_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."application"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment" ADD CONSTRAINT "payment_notification_id_payment_notification_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."payment_notification"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy" ADD CONSTRAINT "policy_application_id_application_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."application"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy" ADD CONSTRAINT "policy_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy" ADD CONSTRAINT "policy_customer_id_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy" ADD CONSTRAINT "policy_payment_id_payment_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payment"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_coinsurer" ADD CONSTRAINT "policy_coinsurer_policy_id_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policy"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_document" ADD CONSTRAINT "policy_document_policy_id_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policy"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_notification_order" ON "payment_notification" USING btree ("order_no","id");--> statement-breakpoint
CREATE INDEX "payment_notification_time" ON "payment_notification" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_order_once" ON "payment" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_provider_trade" ON "payment" USING btree ("provider","trade_no");--> statement-breakpoint
CREATE INDEX "payment_application" ON "payment" USING btree ("application_id");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_number" ON "policy" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_application" ON "policy" USING btree ("application_id");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_verification_code" ON "policy" USING btree ("verification_code");--> statement-breakpoint
CREATE INDEX "policy_customer" ON "policy" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "policy_issued" ON "policy" USING btree ("issued_at");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_coinsurer_insurer" ON "policy_coinsurer" USING btree ("policy_id","insurer_code");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_charge_no" ON "sandbox_charge" USING btree ("charge_no");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_charge_order" ON "sandbox_charge" USING btree ("merchant_id","order_no");--> statement-breakpoint
CREATE INDEX "payment_order_status_expires" ON "payment_order" USING btree ("status","expires_at");--> statement-breakpoint
ALTER TABLE "payment_order" ADD CONSTRAINT "payment_order_status" CHECK ("payment_order"."status" in ('PENDING', 'PAID', 'EXPIRED', 'CANCELLED'));