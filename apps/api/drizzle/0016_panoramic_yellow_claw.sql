ALTER TABLE "domain_snapshots" ADD COLUMN "final_url" text;--> statement-breakpoint
ALTER TABLE "domain_snapshots" ADD COLUMN "error" text;