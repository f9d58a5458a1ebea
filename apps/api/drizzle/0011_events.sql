DROP INDEX "events_search_gin";--> statement-breakpoint
CREATE INDEX "events_search_gin" ON "events" USING gin ("module","company_id","search");