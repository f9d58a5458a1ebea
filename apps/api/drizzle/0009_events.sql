DROP INDEX "events_company_module_created_idx";--> statement-breakpoint
DROP INDEX "events_module_created_idx";--> statement-breakpoint
DROP INDEX "events_company_module_status_idx";--> statement-breakpoint
DROP INDEX "events_module_status_idx";--> statement-breakpoint
DROP INDEX "events_company_module_priority_idx";--> statement-breakpoint
DROP INDEX "events_company_module_detected_idx";--> statement-breakpoint
CREATE INDEX "events_module_detected_idx" ON "events" USING btree ("module","detected_at" DESC NULLS LAST,"id" DESC NULLS LAST,"company_id");--> statement-breakpoint
CREATE INDEX "events_company_module_created_idx" ON "events" USING btree ("company_id","module","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"status_id","priority_id");--> statement-breakpoint
CREATE INDEX "events_module_created_idx" ON "events" USING btree ("module","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"company_id","status_id","priority_id");--> statement-breakpoint
CREATE INDEX "events_company_module_status_idx" ON "events" USING btree ("company_id","module","status_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"priority_id","decision_id");--> statement-breakpoint
CREATE INDEX "events_module_status_idx" ON "events" USING btree ("module","status_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"company_id","priority_id");--> statement-breakpoint
CREATE INDEX "events_company_module_priority_idx" ON "events" USING btree ("company_id","module","priority_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"status_id");--> statement-breakpoint
CREATE INDEX "events_company_module_detected_idx" ON "events" USING btree ("company_id","module","detected_at" DESC NULLS LAST,"id" DESC NULLS LAST);