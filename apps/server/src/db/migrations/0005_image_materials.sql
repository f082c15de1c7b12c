CREATE TABLE "material" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"business_type" text NOT NULL,
	"business_id" bigint NOT NULL,
	"doc_type" text NOT NULL,
	"original_name" text NOT NULL,
	"storage_key" text NOT NULL,
	"mime" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"uploaded_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "material_business_type" CHECK ("material"."business_type" in ('application', 'customer', 'policy')),
	CONSTRAINT "material_mime" CHECK ("material"."mime" in ('image/jpeg', 'image/png', 'image/webp', 'application/pdf')),
	CONSTRAINT "material_size" CHECK ("material"."size_bytes" > 0)
);
--> statement-breakpoint
ALTER TABLE "material" ADD CONSTRAINT "material_uploaded_by_app_user_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "material_business" ON "material" USING btree ("business_type","business_id","doc_type");--> statement-breakpoint
CREATE UNIQUE INDEX "material_storage_key" ON "material" USING btree ("storage_key");