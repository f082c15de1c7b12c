CREATE TABLE "sales_supplement" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"policy_id" bigint NOT NULL,
	"variant" text DEFAULT 'STANDARD' NOT NULL,
	"salesperson_name" text NOT NULL,
	"salesperson_no" text NOT NULL,
	"agent_user_id" bigint,
	"agent_name" text,
	"agent_licence_no" text,
	"commission_rate" integer NOT NULL,
	"business_source" text NOT NULL,
	"nb_project_name" text,
	"migrant_worker_count" integer,
	"wage_bank" text,
	"wage_account_no" text,
	"labour_contract_filing_no" text,
	"supervising_authority" text,
	"remark" text,
	"created_by" bigint,
	"updated_by" bigint,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sales_supplement_variant" CHECK ("sales_supplement"."variant" in ('STANDARD', 'NBNMG')),
	CONSTRAINT "sales_supplement_commission" CHECK ("sales_supplement"."commission_rate" between 0 and 5000000),
	CONSTRAINT "sales_supplement_migrant_workers" CHECK ("sales_supplement"."migrant_worker_count" is null or "sales_supplement"."migrant_worker_count" between 1 and 999999)
);
--> statement-breakpoint
CREATE TABLE "salesperson_change" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"supplement_id" bigint NOT NULL,
	"policy_id" bigint NOT NULL,
	"old_name" text NOT NULL,
	"old_no" text NOT NULL,
	"new_name" text NOT NULL,
	"new_no" text NOT NULL,
	"reason" text NOT NULL,
	"actor_id" bigint,
	"actor_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "application" ADD COLUMN "renewal_of_policy_id" bigint;--> statement-breakpoint
ALTER TABLE "sales_supplement" ADD CONSTRAINT "sales_supplement_policy_id_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policy"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_supplement" ADD CONSTRAINT "sales_supplement_agent_user_id_app_user_id_fk" FOREIGN KEY ("agent_user_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_supplement" ADD CONSTRAINT "sales_supplement_created_by_app_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales_supplement" ADD CONSTRAINT "sales_supplement_updated_by_app_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "salesperson_change" ADD CONSTRAINT "salesperson_change_supplement_id_sales_supplement_id_fk" FOREIGN KEY ("supplement_id") REFERENCES "public"."sales_supplement"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "salesperson_change" ADD CONSTRAINT "salesperson_change_policy_id_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policy"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "salesperson_change" ADD CONSTRAINT "salesperson_change_actor_id_app_user_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sales_supplement_policy" ON "sales_supplement" USING btree ("policy_id");--> statement-breakpoint
CREATE INDEX "sales_supplement_salesperson" ON "sales_supplement" USING btree ("salesperson_no");--> statement-breakpoint
CREATE INDEX "salesperson_change_supplement" ON "salesperson_change" USING btree ("supplement_id","id");--> statement-breakpoint
ALTER TABLE "application" ADD CONSTRAINT "application_renewal_of_policy_id_policy_id_fk" FOREIGN KEY ("renewal_of_policy_id") REFERENCES "public"."policy"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "application_renewal_of_policy" ON "application" USING btree ("renewal_of_policy_id") WHERE "application"."renewal_of_policy_id" is not null and "application"."status" not in ('CANCELLED', 'DECLINED');