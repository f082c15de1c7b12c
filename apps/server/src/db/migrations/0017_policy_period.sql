ALTER TABLE "rate_table" ADD COLUMN "short_period_rule" text DEFAULT 'SHORT_RATE_TABLE' NOT NULL;--> statement-breakpoint
ALTER TABLE "rate_table" ADD COLUMN "short_rate_table" jsonb;--> statement-breakpoint
ALTER TABLE "rate_table" ADD CONSTRAINT "rate_table_short_period_rule" CHECK ("rate_table"."short_period_rule" in ('SHORT_RATE_TABLE', 'PRO_RATA_DAILY'));