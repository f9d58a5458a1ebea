ALTER TABLE "filtrator_messages" ADD COLUMN "forwarded_from" text;--> statement-breakpoint
ALTER TABLE "filtrator_messages" ADD COLUMN "views" bigint;