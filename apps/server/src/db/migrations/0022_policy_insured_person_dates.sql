ALTER TABLE "policy_insured_person" ADD COLUMN "added_on" date;--> statement-breakpoint
ALTER TABLE "policy_insured_person" ADD COLUMN "removed_on" date;