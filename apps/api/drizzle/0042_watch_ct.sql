CREATE TABLE "watch_ct_certs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" bigint NOT NULL,
	"issuer" text NOT NULL,
	"serial" text NOT NULL,
	"fingerprint" text NOT NULL,
	"sans" jsonb NOT NULL,
	"not_before" timestamp with time zone,
	"not_after" timestamp with time zone,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "watch_targets" ADD COLUMN "domain" text;--> statement-breakpoint
ALTER TABLE "watch_ct_certs" ADD CONSTRAINT "watch_ct_certs_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "watch_ct_certs_uq" ON "watch_ct_certs" USING btree ("event_id","issuer","serial");--> statement-breakpoint
CREATE INDEX "watch_ct_certs_event_idx" ON "watch_ct_certs" USING btree ("event_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "watch_targets_domain_idx" ON "watch_targets" USING btree ("domain");--> statement-breakpoint
CREATE INDEX "watch_transitions_at_idx" ON "watch_transitions" USING btree ("at");--> statement-breakpoint
-- hand-written
UPDATE "watch_targets" t SET "domain" = coalesce(e."data"->>'domain_punycode', e."data"->>'domain') FROM "events" e WHERE e."id" = t."event_id";
