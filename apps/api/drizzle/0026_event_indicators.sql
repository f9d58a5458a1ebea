ALTER TABLE "events" ADD COLUMN "indicators" text[];--> statement-breakpoint
CREATE INDEX "events_indicators_gin" ON "events" USING gin ("indicators");--> statement-breakpoint
CREATE INDEX "events_indicators_pending_idx" ON "events" USING btree ("id") WHERE "events"."indicators" IS NULL;