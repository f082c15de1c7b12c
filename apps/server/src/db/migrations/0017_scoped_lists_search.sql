-- Keyword search by trigram indexes (pg_trgm, a trusted extension: the database owner may create it). The
-- cluster's C locale gives non-ASCII characters no trigrams, so Chinese text is indexed by a key of letters and
-- digits: piibs_text_key(t) writes each character of t as itself (ASCII letters and digits, lowered), a space
-- (other ASCII) or three base-36 digits of its code point (everything else), one code per character, so a
-- substring's key is a substring of the text's key. "Contains" is then piibs_text_key(col) LIKE '%' ||
-- piibs_text_key(q) || '%' (indexed) AND col ILIKE '%q%' (the exact check: a key may match across characters).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE OR REPLACE FUNCTION piibs_text_key(t text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN (
    SELECT string_agg(
      CASE
        WHEN c ~ '^[A-Za-z0-9]$' THEN lower(c)
        WHEN ascii(c) < 128 THEN ' '
        ELSE substr('0123456789abcdefghijklmnopqrstuvwxyz', (ascii(c) / 1296) % 36 + 1, 1)
          || substr('0123456789abcdefghijklmnopqrstuvwxyz', (ascii(c) / 36) % 36 + 1, 1)
          || substr('0123456789abcdefghijklmnopqrstuvwxyz', ascii(c) % 36 + 1, 1)
      END, '' ORDER BY i)
    FROM unnest(regexp_split_to_array(t, '')) WITH ORDINALITY AS x(c, i)
  );--> statement-breakpoint
DROP INDEX "application_customer";--> statement-breakpoint
DROP INDEX "application_owner";--> statement-breakpoint
DROP INDEX "application_agent";--> statement-breakpoint
ALTER TABLE "application" ADD COLUMN "search_key" text GENERATED ALWAYS AS (piibs_text_key(coalesce(number, '') || ' ' || coalesce(insured_name, ''))) STORED;--> statement-breakpoint
ALTER TABLE "customer" ADD COLUMN "search_key" text GENERATED ALWAYS AS (piibs_text_key(coalesce(name, '') || ' ' || coalesce(uscc, '') || ' ' || coalesce(contact_name, ''))) STORED;--> statement-breakpoint
CREATE INDEX "application_customer_updated" ON "application" USING btree ("customer_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "application_owner_updated" ON "application" USING btree ("owner_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "application_agent_updated" ON "application" USING btree ("agent_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "application_search_trgm" ON "application" USING gin ("search_key" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customer_search_trgm" ON "customer" USING gin ("search_key" gin_trgm_ops);