DROP INDEX "customer_owner";--> statement-breakpoint
CREATE INDEX "customer_owner" ON "customer" USING btree ("owner_id","id");