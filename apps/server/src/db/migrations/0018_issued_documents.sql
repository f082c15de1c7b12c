CREATE TABLE "issued_document" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"policy_id" bigint,
	"number" text NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"content" "bytea",
	"cert_subject" text NOT NULL,
	"cert_issuer" text NOT NULL,
	"cert_serial" text NOT NULL,
	"cert_not_before" timestamp with time zone NOT NULL,
	"cert_not_after" timestamp with time zone NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "issued_document_kind" CHECK ("issued_document"."kind" in ('POLICY', 'ENDORSEMENT', 'CANCELLATION', 'PREVENTION_ARCHIVE'))
);
--> statement-breakpoint
ALTER TABLE "issued_document" ADD CONSTRAINT "issued_document_policy_id_policy_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policy"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "issued_document_policy" ON "issued_document" USING btree ("policy_id","issued_at");--> statement-breakpoint
CREATE INDEX "issued_document_sha256" ON "issued_document" USING btree ("sha256");