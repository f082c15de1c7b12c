CREATE TABLE "application_insured_person" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"application_id" bigint NOT NULL,
	"sort" integer NOT NULL,
	"name" text NOT NULL,
	"id_number" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "policy_insured_person" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"policy_id" bigint NOT NULL,
	"sort" integer NOT NULL,
	"name" text NOT NULL,
	"id_number" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "named_insured_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "rate_table" ADD COLUMN "short_period_rule" text DEFAULT 'SHORT_RATE_TABLE' NOT NULL;--> statement-breakpoint
ALTER TABLE "rate_table" ADD COLUMN "short_rate_table" jsonb;--> statement-breakpoint
ALTER TABLE "application_insured_person" ADD CONSTRAINT "application_insured_person_application_id_application_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."application"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_insured_person" ADD CONSTRAINT "policy_insured_person_policy_id_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policy"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "application_insured_person_id_number" ON "application_insured_person" USING btree ("application_id","id_number");--> statement-breakpoint
CREATE INDEX "application_insured_person_application" ON "application_insured_person" USING btree ("application_id","sort");--> statement-breakpoint
CREATE INDEX "policy_insured_person_policy" ON "policy_insured_person" USING btree ("policy_id","sort");--> statement-breakpoint
ALTER TABLE "rate_table" ADD CONSTRAINT "rate_table_short_period_rule" CHECK ("rate_table"."short_period_rule" in ('SHORT_RATE_TABLE', 'PRO_RATA_DAILY'));