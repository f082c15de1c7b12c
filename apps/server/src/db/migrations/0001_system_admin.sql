CREATE TABLE "dict_detail" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"dict_id" bigint NOT NULL,
	"label" text NOT NULL,
	"value" text NOT NULL,
	"sort" integer DEFAULT 999 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dict" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dict_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "job" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"sort" integer DEFAULT 999 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "role_dept" (
	"role_id" bigint NOT NULL,
	"dept_id" bigint NOT NULL,
	CONSTRAINT "role_dept_role_id_dept_id_pk" PRIMARY KEY("role_id","dept_id")
);
--> statement-breakpoint
CREATE TABLE "user_job" (
	"user_id" bigint NOT NULL,
	"job_id" bigint NOT NULL,
	CONSTRAINT "user_job_user_id_job_id_pk" PRIMARY KEY("user_id","job_id")
);
--> statement-breakpoint
ALTER TABLE "department" ADD COLUMN "version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "department" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "role" ADD COLUMN "version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "role" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "app_user" ADD COLUMN "password_one_time" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "app_user" ADD COLUMN "one_time_used_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "dict_detail" ADD CONSTRAINT "dict_detail_dict_id_dict_id_fk" FOREIGN KEY ("dict_id") REFERENCES "public"."dict"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_dept" ADD CONSTRAINT "role_dept_role_id_role_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."role"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_dept" ADD CONSTRAINT "role_dept_dept_id_department_id_fk" FOREIGN KEY ("dept_id") REFERENCES "public"."department"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_job" ADD CONSTRAINT "user_job_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_job" ADD CONSTRAINT "user_job_job_id_job_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."job"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dict_detail_value" ON "dict_detail" USING btree ("dict_id","value");--> statement-breakpoint
CREATE INDEX "dict_detail_sort" ON "dict_detail" USING btree ("dict_id","sort");--> statement-breakpoint
CREATE UNIQUE INDEX "job_name" ON "job" USING btree ("name");--> statement-breakpoint
CREATE INDEX "user_job_job" ON "user_job" USING btree ("job_id");--> statement-breakpoint
CREATE INDEX "audit_time" ON "audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "department_parent" ON "department" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "login_attempt_time" ON "login_attempt" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "user_role_role" ON "user_role" USING btree ("role_id");--> statement-breakpoint
CREATE INDEX "app_user_dept" ON "app_user" USING btree ("dept_id");--> statement-breakpoint
CREATE INDEX "app_user_created" ON "app_user" USING btree ("created_at");