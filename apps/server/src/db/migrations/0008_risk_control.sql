CREATE TABLE "prevention_fund" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"policy_id" bigint NOT NULL,
	"seq_no" text NOT NULL,
	"total_fen" bigint NOT NULL,
	"planned_fen" bigint DEFAULT 0 NOT NULL,
	"spent_fen" bigint DEFAULT 0 NOT NULL,
	"order_serial" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prevention_fund_amounts" CHECK ("prevention_fund"."planned_fen" >= 0 and "prevention_fund"."spent_fen" >= 0 and "prevention_fund"."planned_fen" + "prevention_fund"."spent_fen" <= "prevention_fund"."total_fen")
);
--> statement-breakpoint
CREATE TABLE "prevention_ledger_entry" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"fund_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"amount_fen" bigint NOT NULL,
	"planned_delta_fen" bigint NOT NULL,
	"spent_delta_fen" bigint NOT NULL,
	"planned_after_fen" bigint NOT NULL,
	"spent_after_fen" bigint NOT NULL,
	"left_after_fen" bigint NOT NULL,
	"plan_item_id" bigint,
	"order_id" bigint,
	"note" text,
	"actor_id" bigint,
	"actor_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prevention_ledger_kind" CHECK ("prevention_ledger_entry"."kind" in ('RESERVE', 'RELEASE', 'SPEND')),
	CONSTRAINT "prevention_ledger_left" CHECK ("prevention_ledger_entry"."left_after_fen" >= 0)
);
--> statement-breakpoint
CREATE TABLE "prevention_plan_item" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"fund_id" bigint NOT NULL,
	"item_type" text NOT NULL,
	"content" text,
	"frequency" text NOT NULL,
	"times" integer NOT NULL,
	"unit_cost_fen" bigint NOT NULL,
	"reserved_fen" bigint NOT NULL,
	"spent_fen" bigint DEFAULT 0 NOT NULL,
	"org_id" bigint NOT NULL,
	"person_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"scheduled_dates" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" bigint,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "prevention_plan_item_times" CHECK ("prevention_plan_item"."times" >= 1),
	CONSTRAINT "prevention_plan_item_money" CHECK ("prevention_plan_item"."unit_cost_fen" >= 0 and "prevention_plan_item"."spent_fen" >= 0 and "prevention_plan_item"."reserved_fen" >= 0)
);
--> statement-breakpoint
CREATE TABLE "service_complaint" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"content" text NOT NULL,
	"complained_on" date NOT NULL,
	"deadline" date NOT NULL,
	"status" text DEFAULT 'OPEN' NOT NULL,
	"reply" text,
	"replied_at" timestamp with time zone,
	"replied_by" bigint,
	"replied_by_name" text,
	"created_by" bigint,
	"created_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_complaint_status" CHECK ("service_complaint"."status" in ('OPEN', 'REPLIED'))
);
--> statement-breakpoint
CREATE TABLE "service_hazard" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"seq" integer NOT NULL,
	"description" text NOT NULL,
	"location" text,
	"level" text NOT NULL,
	"measure" text,
	"deadline" date NOT NULL,
	"status" text DEFAULT 'OPEN' NOT NULL,
	"rectified_date" date,
	"rectify_note" text,
	"rectified_by" bigint,
	"rectified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_hazard_level" CHECK ("service_hazard"."level" in ('GENERAL', 'SERIOUS', 'MAJOR')),
	CONSTRAINT "service_hazard_status" CHECK ("service_hazard"."status" in ('OPEN', 'RECTIFIED'))
);
--> statement-breakpoint
CREATE TABLE "service_order_event" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"action" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor_id" bigint,
	"actor_name" text,
	"opinion" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_order" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"fund_id" bigint NOT NULL,
	"policy_id" bigint NOT NULL,
	"plan_item_id" bigint NOT NULL,
	"org_id" bigint NOT NULL,
	"item_type" text NOT NULL,
	"person_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"scheduled_date" date NOT NULL,
	"cost_fen" bigint NOT NULL,
	"status" text DEFAULT 'DISPATCHED' NOT NULL,
	"note" text,
	"service_date" date,
	"address" text,
	"findings" text,
	"participants" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reject_reason" text,
	"cancel_reason" text,
	"return_opinion" text,
	"satisfaction" integer,
	"satisfaction_comment" text,
	"rated_at" timestamp with time zone,
	"dispatched_by" bigint,
	"accepted_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"confirmed_by" bigint,
	"closed_at" timestamp with time zone,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_order_status" CHECK ("service_order"."status" in ('DISPATCHED', 'ACCEPTED', 'REJECTED', 'IN_SERVICE', 'SUBMITTED', 'CONFIRMED', 'CLOSED', 'CANCELLED')),
	CONSTRAINT "service_order_cost" CHECK ("service_order"."cost_fen" >= 0),
	CONSTRAINT "service_order_satisfaction" CHECK ("service_order"."satisfaction" is null or "service_order"."satisfaction" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "service_org_member" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"org_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_org" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"address" text,
	"qualifications" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"regions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"industries" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"contacts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"note" text,
	"created_by" bigint,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_person" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"org_id" bigint NOT NULL,
	"name" text NOT NULL,
	"specialty" text NOT NULL,
	"title" text,
	"expert" boolean DEFAULT false NOT NULL,
	"certificate_name" text NOT NULL,
	"certificate_no" text NOT NULL,
	"certificate_valid_from" date NOT NULL,
	"certificate_valid_to" date NOT NULL,
	"phone" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"note" text,
	"created_by" bigint,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_person_certificate" CHECK ("service_person"."certificate_valid_from" <= "service_person"."certificate_valid_to")
);
--> statement-breakpoint
ALTER TABLE "prevention_fund" ADD CONSTRAINT "prevention_fund_policy_id_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policy"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prevention_ledger_entry" ADD CONSTRAINT "prevention_ledger_entry_fund_id_prevention_fund_id_fk" FOREIGN KEY ("fund_id") REFERENCES "public"."prevention_fund"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prevention_ledger_entry" ADD CONSTRAINT "prevention_ledger_entry_plan_item_id_prevention_plan_item_id_fk" FOREIGN KEY ("plan_item_id") REFERENCES "public"."prevention_plan_item"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prevention_ledger_entry" ADD CONSTRAINT "prevention_ledger_entry_order_id_service_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."service_order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prevention_ledger_entry" ADD CONSTRAINT "prevention_ledger_entry_actor_id_app_user_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prevention_plan_item" ADD CONSTRAINT "prevention_plan_item_fund_id_prevention_fund_id_fk" FOREIGN KEY ("fund_id") REFERENCES "public"."prevention_fund"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prevention_plan_item" ADD CONSTRAINT "prevention_plan_item_org_id_service_org_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."service_org"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prevention_plan_item" ADD CONSTRAINT "prevention_plan_item_created_by_app_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_complaint" ADD CONSTRAINT "service_complaint_order_id_service_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."service_order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_complaint" ADD CONSTRAINT "service_complaint_replied_by_app_user_id_fk" FOREIGN KEY ("replied_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_complaint" ADD CONSTRAINT "service_complaint_created_by_app_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_hazard" ADD CONSTRAINT "service_hazard_order_id_service_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."service_order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_hazard" ADD CONSTRAINT "service_hazard_rectified_by_app_user_id_fk" FOREIGN KEY ("rectified_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_order_event" ADD CONSTRAINT "service_order_event_order_id_service_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."service_order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_order_event" ADD CONSTRAINT "service_order_event_actor_id_app_user_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_order" ADD CONSTRAINT "service_order_fund_id_prevention_fund_id_fk" FOREIGN KEY ("fund_id") REFERENCES "public"."prevention_fund"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_order" ADD CONSTRAINT "service_order_policy_id_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policy"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_order" ADD CONSTRAINT "service_order_plan_item_id_prevention_plan_item_id_fk" FOREIGN KEY ("plan_item_id") REFERENCES "public"."prevention_plan_item"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_order" ADD CONSTRAINT "service_order_org_id_service_org_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."service_org"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_order" ADD CONSTRAINT "service_order_dispatched_by_app_user_id_fk" FOREIGN KEY ("dispatched_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_order" ADD CONSTRAINT "service_order_confirmed_by_app_user_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_org_member" ADD CONSTRAINT "service_org_member_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_org_member" ADD CONSTRAINT "service_org_member_org_id_service_org_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."service_org"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_org" ADD CONSTRAINT "service_org_created_by_app_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_person" ADD CONSTRAINT "service_person_org_id_service_org_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."service_org"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_person" ADD CONSTRAINT "service_person_created_by_app_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "prevention_fund_policy" ON "prevention_fund" USING btree ("policy_id");--> statement-breakpoint
CREATE UNIQUE INDEX "prevention_fund_seq_no" ON "prevention_fund" USING btree ("seq_no");--> statement-breakpoint
CREATE INDEX "prevention_ledger_fund" ON "prevention_ledger_entry" USING btree ("fund_id","id");--> statement-breakpoint
CREATE INDEX "prevention_plan_item_fund" ON "prevention_plan_item" USING btree ("fund_id");--> statement-breakpoint
CREATE INDEX "prevention_plan_item_org" ON "prevention_plan_item" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "service_complaint_order" ON "service_complaint" USING btree ("order_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "service_complaint_one_open" ON "service_complaint" USING btree ("order_id") WHERE "service_complaint"."status" = 'OPEN';--> statement-breakpoint
CREATE INDEX "service_complaint_open_deadline" ON "service_complaint" USING btree ("deadline") WHERE "service_complaint"."status" = 'OPEN';--> statement-breakpoint
CREATE INDEX "service_hazard_order" ON "service_hazard" USING btree ("order_id","seq");--> statement-breakpoint
CREATE INDEX "service_order_event_order" ON "service_order_event" USING btree ("order_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "service_order_number" ON "service_order" USING btree ("number");--> statement-breakpoint
CREATE INDEX "service_order_org_status" ON "service_order" USING btree ("org_id","status");--> statement-breakpoint
CREATE INDEX "service_order_policy" ON "service_order" USING btree ("policy_id");--> statement-breakpoint
CREATE INDEX "service_order_plan_item" ON "service_order" USING btree ("plan_item_id");--> statement-breakpoint
CREATE INDEX "service_org_member_org" ON "service_org_member" USING btree ("org_id");--> statement-breakpoint
CREATE UNIQUE INDEX "service_org_code" ON "service_org" USING btree ("code");--> statement-breakpoint
CREATE INDEX "service_org_name" ON "service_org" USING btree ("name");--> statement-breakpoint
CREATE INDEX "service_person_org" ON "service_person" USING btree ("org_id");--> statement-breakpoint
-- The fund's ledger and the service orders' timelines are append-only (records are kept at least 5 years).
CREATE OR REPLACE FUNCTION risk_control_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER prevention_ledger_entry_no_update_delete
  BEFORE UPDATE OR DELETE ON "prevention_ledger_entry"
  FOR EACH ROW EXECUTE FUNCTION risk_control_append_only();--> statement-breakpoint
CREATE TRIGGER service_order_event_no_update_delete
  BEFORE UPDATE OR DELETE ON "service_order_event"
  FOR EACH ROW EXECUTE FUNCTION risk_control_append_only();
