ALTER TABLE "filtrator_messages" ADD COLUMN "forwarded_from" text;--> statement-breakpoint
ALTER TABLE "filtrator_messages" ADD COLUMN "views" bigint;--> statement-breakpoint
ALTER TABLE "filtrator_messages" ADD COLUMN "edited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "filtrator_messages" ADD COLUMN "deleted_at" timestamp with time zone;