-- application.applicant_owner_id copies the applicant's owner (customer.owner_id): an agent's clients'
-- applications become one index range, read newest first, instead of one range per client merged and sorted.
ALTER TABLE "application" ADD COLUMN "applicant_owner_id" bigint;--> statement-breakpoint
CREATE OR REPLACE FUNCTION application_applicant_owner_set() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.applicant_owner_id := (SELECT c.owner_id FROM customer c WHERE c.id = NEW.customer_id);
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER application_applicant_owner
  BEFORE INSERT OR UPDATE OF customer_id, applicant_owner_id ON "application"
  FOR EACH ROW EXECUTE FUNCTION application_applicant_owner_set();--> statement-breakpoint
-- A client handed to another owner: its applications follow (writing applicant_owner_id, any value, has the row
-- trigger above read the customer's new owner).
CREATE OR REPLACE FUNCTION customer_owner_applications() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE application a SET applicant_owner_id = NEW.owner_id WHERE a.customer_id = NEW.id;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER customer_owner_applications
  AFTER UPDATE OF owner_id ON "customer"
  FOR EACH ROW WHEN (OLD.owner_id IS DISTINCT FROM NEW.owner_id) EXECUTE FUNCTION customer_owner_applications();--> statement-breakpoint
-- Every existing row whose applicant has an owner, through the row trigger.
UPDATE "application" a SET applicant_owner_id = c.owner_id FROM "customer" c
  WHERE c.id = a.customer_id AND c.owner_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "application_applicant_owner_updated" ON "application" USING btree ("applicant_owner_id","updated_at","id");--> statement-breakpoint
-- A searched list of a data scope filters the applicants' rows by the scope from this index (as in 0023).
DROP INDEX "application_customer_updated";--> statement-breakpoint
CREATE INDEX "application_customer_updated" ON "application" USING btree ("customer_id","updated_at","id")
  INCLUDE ("owner_id","agent_id","applicant_owner_id");
