CREATE SEQUENCE "public"."endorsement_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "endorsement_document" (
	"endorsement_id" bigint PRIMARY KEY NOT NULL,
	"content" "bytea" NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "endorsement" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"policy_id" bigint NOT NULL,
	"secondary_order_id" bigint NOT NULL,
	"changes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"premium_before_fen" bigint NOT NULL,
	"premium_after_fen" bigint NOT NULL,
	"premium_diff_fen" bigint NOT NULL,
	"effective_date" date NOT NULL,
	"pdf_sha256" text NOT NULL,
	"pdf_size" integer NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "endorsement_money" CHECK ("endorsement"."premium_before_fen" >= 0 and "endorsement"."premium_after_fen" >= 0 and "endorsement"."premium_diff_fen" = "endorsement"."premium_after_fen" - "endorsement"."premium_before_fen")
);
--> statement-breakpoint
ALTER TABLE "annual_order" ADD COLUMN "contact_name" text;--> statement-breakpoint
ALTER TABLE "annual_order" ADD COLUMN "contact_phone" text;--> statement-breakpoint
ALTER TABLE "annual_order" ADD COLUMN "application_id" bigint;--> statement-breakpoint
ALTER TABLE "annual_order" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "secondary_order" ADD COLUMN "base_id" bigint;--> statement-breakpoint
ALTER TABLE "secondary_order" ADD COLUMN "base_values" jsonb;--> statement-breakpoint
ALTER TABLE "secondary_order" ADD COLUMN "premium_diff_fen" bigint;--> statement-breakpoint
ALTER TABLE "endorsement_document" ADD CONSTRAINT "endorsement_document_endorsement_id_endorsement_id_fk" FOREIGN KEY ("endorsement_id") REFERENCES "public"."endorsement"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endorsement" ADD CONSTRAINT "endorsement_policy_id_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policy"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endorsement" ADD CONSTRAINT "endorsement_secondary_order_id_secondary_order_id_fk" FOREIGN KEY ("secondary_order_id") REFERENCES "public"."secondary_order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "endorsement_number" ON "endorsement" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "endorsement_secondary_order" ON "endorsement" USING btree ("secondary_order_id");--> statement-breakpoint
CREATE INDEX "endorsement_policy" ON "endorsement" USING btree ("policy_id");--> statement-breakpoint
ALTER TABLE "annual_order" ADD CONSTRAINT "annual_order_application_id_application_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."application"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "secondary_order" ADD CONSTRAINT "secondary_order_base_id_secondary_order_id_fk" FOREIGN KEY ("base_id") REFERENCES "public"."secondary_order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "annual_order_application" ON "annual_order" USING btree ("application_id");--> statement-breakpoint
CREATE UNIQUE INDEX "secondary_order_open_change" ON "secondary_order" USING btree ("base_id") WHERE "secondary_order"."status" in ('DRAFT', 'PENDING_REVIEW', 'RETURNED');--> statement-breakpoint
ALTER TABLE "secondary_order" ADD CONSTRAINT "secondary_order_change" CHECK (("secondary_order"."kind" = 2) = ("secondary_order"."base_id" is not null));