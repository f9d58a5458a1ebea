DROP INDEX "events_company_module_detected_idx";--> statement-breakpoint
DROP INDEX "events_module_detected_idx";--> statement-breakpoint
CREATE INDEX "events_company_module_detected_idx" ON "events" USING btree ("company_id","module","detected_at" DESC NULLS LAST,"id" DESC NULLS LAST,"status_id","priority_id");--> statement-breakpoint
CREATE INDEX "events_module_detected_idx" ON "events" USING btree ("module","detected_at" DESC NULLS LAST,"id" DESC NULLS LAST,"company_id","status_id","priority_id");