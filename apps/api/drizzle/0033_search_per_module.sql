-- Free-text search: one partial GIN index per module instead of one over all events (docs/decisions.md,
-- «Поиск: индекс на модуль»). IF [NOT] EXISTS: a large installation may build them beforehand (CONCURRENTLY).
DROP INDEX IF EXISTS "events_search_gin";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_search_domains_gin" ON "events" USING gin ("company_id","search") WHERE module = 'domains';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_search_brand_gin" ON "events" USING gin ("company_id","search") WHERE module = 'brand';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_search_management_gin" ON "events" USING gin ("company_id","search") WHERE module = 'management';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_search_databases_gin" ON "events" USING gin ("company_id","search") WHERE module = 'databases';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_search_services_gin" ON "events" USING gin ("company_id","search") WHERE module = 'services';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_search_acquiring_gin" ON "events" USING gin ("company_id","search") WHERE module = 'acquiring';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_search_employees_gin" ON "events" USING gin ("company_id","search") WHERE module = 'employees';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_search_firms_gin" ON "events" USING gin ("company_id","search") WHERE module = 'firms';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_search_accounts_gin" ON "events" USING gin ("company_id","search") WHERE module = 'accounts';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_search_leaks_gin" ON "events" USING gin ("company_id","search") WHERE module = 'leaks';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_search_repositories_gin" ON "events" USING gin ("company_id","search") WHERE module = 'repositories';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_search_media_gin" ON "events" USING gin ("company_id","search") WHERE module = 'media';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_search_merchant_gin" ON "events" USING gin ("company_id","search") WHERE module = 'merchant';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_search_endpoints_gin" ON "events" USING gin ("company_id","search") WHERE module = 'endpoints';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_search_consulting_gin" ON "events" USING gin ("company_id","search") WHERE module = 'consulting';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "events_search_networkattacks_gin" ON "events" USING gin ("company_id","search") WHERE module = 'networkattacks';