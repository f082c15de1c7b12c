CREATE SEQUENCE "public"."application_change_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE INDEX "application_updated_id" ON "application" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "application_created_id" ON "application" USING btree ("created_at","id");--> statement-breakpoint
-- Every statement that changes application advances application_change_seq: the data version cached list
-- counts are checked against (lib/paging.ts CountCache), right across instances sharing the database.
CREATE OR REPLACE FUNCTION application_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('application_change_seq');
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER application_change_version
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "application"
  FOR EACH STATEMENT EXECUTE FUNCTION application_changed();
