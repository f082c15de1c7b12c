CREATE SEQUENCE "public"."policy_change_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "sandbox_refund" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"refund_no" text NOT NULL,
	"order_no" text NOT NULL,
	"charge_no" text NOT NULL,
	"amount_fen" bigint NOT NULL,
	"refund_trade_no" text NOT NULL,
	"refunded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_refund_amount" CHECK ("sandbox_refund"."amount_fen" > 0)
);
--> statement-breakpoint
CREATE TABLE "policy_change" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"policy_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'PENDING_REVIEW' NOT NULL,
	"effective_date" date NOT NULL,
	"changes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"new_values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"annual_before_fen" bigint NOT NULL,
	"annual_after_fen" bigint NOT NULL,
	"premium_before_fen" bigint NOT NULL,
	"premium_delta_fen" bigint NOT NULL,
	"reason" text,
	"party" text,
	"earned_fen" bigint,
	"basis" text,
	"prevention_spent_fen" bigint,
	"proof_material_id" bigint,
	"note" text,
	"idempotency_key" text NOT NULL,
	"requested_by" bigint,
	"reviewed_by" bigint,
	"review_opinion" text,
	"reviewed_at" timestamp with time zone,
	"provider" text,
	"charge_no" text,
	"cashier_url" text,
	"pay_expires_at" timestamp with time zone,
	"trade_no" text,
	"paid_at" timestamp with time zone,
	"done_at" timestamp with time zone,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "policy_change_kind" CHECK ("policy_change"."kind" in ('ENDORSEMENT', 'CANCELLATION')),
	CONSTRAINT "policy_change_status" CHECK ("policy_change"."status" in ('PENDING_REVIEW', 'RETURNED', 'DECLINED', 'PENDING_PAYMENT', 'REFUNDING', 'DONE')),
	CONSTRAINT "policy_change_money" CHECK ("policy_change"."annual_before_fen" >= 0 and "policy_change"."annual_after_fen" >= 0 and "policy_change"."premium_before_fen" >= 0 and "policy_change"."premium_before_fen" + "policy_change"."premium_delta_fen" >= 0)
);
--> statement-breakpoint
CREATE TABLE "policy_refund" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"refund_no" text NOT NULL,
	"policy_change_id" bigint NOT NULL,
	"policy_id" bigint NOT NULL,
	"provider" text NOT NULL,
	"order_no" text NOT NULL,
	"amount_fen" bigint NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"refund_trade_no" text,
	"refunded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "policy_refund_amount" CHECK ("policy_refund"."amount_fen" > 0),
	CONSTRAINT "policy_refund_status" CHECK ("policy_refund"."status" in ('PENDING', 'SUCCESS'))
);
--> statement-breakpoint
ALTER TABLE "policy" DROP CONSTRAINT "policy_status";--> statement-breakpoint
ALTER TABLE "policy" DROP CONSTRAINT "policy_money";--> statement-breakpoint
ALTER TABLE "endorsement" ALTER COLUMN "secondary_order_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "policy" ADD COLUMN "annual_premium_fen" bigint;--> statement-breakpoint
ALTER TABLE "policy" ADD COLUMN "contact_name" text;--> statement-breakpoint
ALTER TABLE "policy" ADD COLUMN "contact_phone" text;--> statement-breakpoint
ALTER TABLE "policy" ADD COLUMN "cancelled_on" date;--> statement-breakpoint
ALTER TABLE "policy" ADD COLUMN "cancellation_reason" text;--> statement-breakpoint
ALTER TABLE "policy" ADD COLUMN "version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "endorsement" ADD COLUMN "policy_change_id" bigint;--> statement-breakpoint
ALTER TABLE "policy_change" ADD CONSTRAINT "policy_change_policy_id_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policy"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_change" ADD CONSTRAINT "policy_change_requested_by_app_user_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_change" ADD CONSTRAINT "policy_change_reviewed_by_app_user_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_refund" ADD CONSTRAINT "policy_refund_policy_change_id_policy_change_id_fk" FOREIGN KEY ("policy_change_id") REFERENCES "public"."policy_change"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_refund" ADD CONSTRAINT "policy_refund_policy_id_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policy"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_refund_no" ON "sandbox_refund" USING btree ("merchant_id","refund_no");--> statement-breakpoint
CREATE INDEX "sandbox_refund_order" ON "sandbox_refund" USING btree ("merchant_id","order_no");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_change_number" ON "policy_change" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_change_idempotency" ON "policy_change" USING btree ("policy_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_change_open" ON "policy_change" USING btree ("policy_id") WHERE "policy_change"."status" in ('PENDING_REVIEW', 'RETURNED', 'PENDING_PAYMENT', 'REFUNDING');--> statement-breakpoint
CREATE INDEX "policy_change_status" ON "policy_change" USING btree ("status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_refund_no" ON "policy_refund" USING btree ("refund_no");--> statement-breakpoint
CREATE INDEX "policy_refund_change" ON "policy_refund" USING btree ("policy_change_id");--> statement-breakpoint
ALTER TABLE "endorsement" ADD CONSTRAINT "endorsement_policy_change_id_policy_change_id_fk" FOREIGN KEY ("policy_change_id") REFERENCES "public"."policy_change"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "endorsement_policy_change" ON "endorsement" USING btree ("policy_change_id");--> statement-breakpoint
ALTER TABLE "policy" ADD CONSTRAINT "policy_status" CHECK ("policy"."status" in ('ISSUED', 'IN_FORCE', 'EXPIRED', 'CANCELLED'));--> statement-breakpoint
ALTER TABLE "policy" ADD CONSTRAINT "policy_money" CHECK ("policy"."premium_fen" >= 0 and "policy"."prevention_fee_fen" >= 0 and coalesce("policy"."annual_premium_fen", 0) >= 0);--> statement-breakpoint
ALTER TABLE "endorsement" ADD CONSTRAINT "endorsement_source" CHECK (num_nonnulls("endorsement"."secondary_order_id", "endorsement"."policy_change_id") = 1);