CREATE SEQUENCE "public"."data_scope_version_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
-- Every statement that changes what a data scope is computed from (the department tree, a role's scope, a custom
-- scope's departments) advances data_scope_version_seq. It is read with the session; a caller's scope computed at
-- one version is reused until it moves (lib/data-scope.ts), right across instances sharing the database.
CREATE OR REPLACE FUNCTION data_scope_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('data_scope_version_seq');
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER data_scope_version_department
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "department"
  FOR EACH STATEMENT EXECUTE FUNCTION data_scope_changed();--> statement-breakpoint
CREATE TRIGGER data_scope_version_role
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "role"
  FOR EACH STATEMENT EXECUTE FUNCTION data_scope_changed();--> statement-breakpoint
CREATE TRIGGER data_scope_version_role_dept
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "role_dept"
  FOR EACH STATEMENT EXECUTE FUNCTION data_scope_changed();
