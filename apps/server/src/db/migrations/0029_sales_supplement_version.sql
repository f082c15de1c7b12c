CREATE SEQUENCE "public"."sales_supplement_version_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
-- Every statement that changes sales_supplement advances sales_supplement_version_seq: with the policies' version,
-- the data version the sales list's cached counts are checked against (lib/keyset.ts CountCache).
CREATE OR REPLACE FUNCTION sales_supplement_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('sales_supplement_version_seq');
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER sales_supplement_version
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "sales_supplement"
  FOR EACH STATEMENT EXECUTE FUNCTION sales_supplement_changed();
