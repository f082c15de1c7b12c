ALTER TABLE "application" ADD COLUMN "requested_doc_types" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "issuer_leads" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "min_premium_fen" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "min_project_cost_fen" bigint;--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "required_materials" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "product" ADD CONSTRAINT "product_minimums" CHECK ("product"."min_premium_fen" >= 0 and ("product"."min_project_cost_fen" is null or "product"."min_project_cost_fen" > 0));