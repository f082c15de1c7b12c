CREATE SEQUENCE "public"."policy_data_version_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
-- Every statement that changes policy advances policy_data_version_seq: the data version the policy list's cached
-- counts are checked against (lib/keyset.ts CountCache), right across instances sharing the database.
CREATE OR REPLACE FUNCTION policy_data_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('policy_data_version_seq');
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER policy_data_version
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "policy"
  FOR EACH STATEMENT EXECUTE FUNCTION policy_data_changed();
