ALTER TABLE "hunt_ranges" ADD COLUMN "parsed" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- hand-written
-- ranges scanned before the prefilter parsed every line
UPDATE "hunt_ranges" SET "parsed" = "lines";
