CREATE SEQUENCE "public"."customer_change_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
-- Every statement that changes customer advances customer_change_seq: the data version the customer list's
-- cached counts are checked against (lib/keyset.ts CountCache), right across instances sharing the database.
CREATE OR REPLACE FUNCTION customer_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('customer_change_seq');
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER customer_change_version
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "customer"
  FOR EACH STATEMENT EXECUTE FUNCTION customer_changed();
