-- application.search_key keeps the number, and the insured name only where it differs from the applicant's name:
-- an insured who is the applicant is found through customer.search_key (the list searches both). The common
-- case then adds no Chinese text to this trigram index, whose candidates each cost a row read and an ILIKE.
ALTER TABLE "application" ALTER COLUMN "search_key" DROP EXPRESSION;--> statement-breakpoint
CREATE OR REPLACE FUNCTION piibs_application_search_key(num text, insured text, applicant text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN piibs_text_key(coalesce(num, '')
    || CASE WHEN insured IS DISTINCT FROM applicant THEN ' ' || coalesce(insured, '') ELSE '' END);--> statement-breakpoint
CREATE OR REPLACE FUNCTION application_search_key_set() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_key := piibs_application_search_key(NEW.number, NEW.insured_name,
    (SELECT c.name FROM customer c WHERE c.id = NEW.customer_id));
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER application_search_key
  BEFORE INSERT OR UPDATE OF number, insured_name, customer_id, search_key ON "application"
  FOR EACH ROW EXECUTE FUNCTION application_search_key_set();--> statement-breakpoint
-- A renamed applicant: its applications' keys now hold (or drop) their insured names. Writing search_key (any
-- value) has the row trigger above compute it.
CREATE OR REPLACE FUNCTION customer_name_search_keys() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE application a SET search_key = NULL
    WHERE a.customer_id = NEW.id
      AND a.search_key IS DISTINCT FROM piibs_application_search_key(a.number, a.insured_name, NEW.name);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER customer_name_search_keys
  AFTER UPDATE OF name ON "customer"
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION customer_name_search_keys();--> statement-breakpoint
-- A searched list of a data scope reads the applicants' rows with the scope (owner, agent) as a filter: from the
-- index alone (drizzle's schema cannot write INCLUDE; the index keeps its name and key columns).
DROP INDEX "application_customer_updated";--> statement-breakpoint
CREATE INDEX "application_customer_updated" ON "application" USING btree ("customer_id","updated_at","id")
  INCLUDE ("owner_id","agent_id");--> statement-breakpoint
-- Every existing key, through the row trigger.
UPDATE "application" SET search_key = NULL;
