-- policy.owner_id, agent_id and applicant_owner_id copy its application's (who may see it: applicationScopeBranches),
-- so a list of an agent's or an owner's policies is one index range per scope branch, read newest first, instead
-- of every application of the viewer looked up for its policy.
DROP INDEX "policy_customer";--> statement-breakpoint
ALTER TABLE "policy" ADD COLUMN "owner_id" bigint;--> statement-breakpoint
ALTER TABLE "policy" ADD COLUMN "agent_id" bigint;--> statement-breakpoint
ALTER TABLE "policy" ADD COLUMN "applicant_owner_id" bigint;--> statement-breakpoint
-- Copied from the application whenever a policy is written with its application or its scope columns.
CREATE OR REPLACE FUNCTION policy_scope_set() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  SELECT a.owner_id, a.agent_id, a.applicant_owner_id
    INTO NEW.owner_id, NEW.agent_id, NEW.applicant_owner_id
    FROM application a WHERE a.id = NEW.application_id;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER policy_scope
  BEFORE INSERT OR UPDATE OF application_id, owner_id, agent_id, applicant_owner_id ON "policy"
  FOR EACH ROW EXECUTE FUNCTION policy_scope_set();--> statement-breakpoint
-- An application whose scope changes (a client handed to another owner, migration 0026): its policy follows
-- (writing owner_id, any value, has the row trigger above read the application again).
CREATE OR REPLACE FUNCTION application_scope_policy() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE policy p SET owner_id = NEW.owner_id WHERE p.application_id = NEW.id;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER application_scope_policy
  AFTER UPDATE OF owner_id, agent_id, applicant_owner_id ON "application"
  FOR EACH ROW WHEN (OLD.owner_id IS DISTINCT FROM NEW.owner_id OR OLD.agent_id IS DISTINCT FROM NEW.agent_id
    OR OLD.applicant_owner_id IS DISTINCT FROM NEW.applicant_owner_id)
  EXECUTE FUNCTION application_scope_policy();--> statement-breakpoint
-- Every existing policy, through the row trigger.
UPDATE "policy" SET owner_id = NULL;--> statement-breakpoint
CREATE INDEX "policy_owner" ON "policy" USING btree ("owner_id","id");--> statement-breakpoint
CREATE INDEX "policy_agent" ON "policy" USING btree ("agent_id","id");--> statement-breakpoint
CREATE INDEX "policy_applicant_owner" ON "policy" USING btree ("applicant_owner_id","id");--> statement-breakpoint
CREATE INDEX "policy_customer" ON "policy" USING btree ("customer_id","id");
