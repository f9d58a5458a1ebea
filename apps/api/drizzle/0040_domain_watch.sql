CREATE TABLE "watch_settings" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"interval_minutes" integer DEFAULT 360 NOT NULL,
	"rules" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "watch_states" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" bigint NOT NULL,
	"state" jsonb NOT NULL,
	"state_hash" text NOT NULL,
	"first_seen" timestamp with time zone NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	"observations" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "watch_targets" (
	"event_id" bigint PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"watched" boolean,
	"interval_minutes" integer,
	"observed_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"state_id" bigint,
	"down_since" timestamp with time zone,
	"web_misses" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "watch_transitions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" bigint NOT NULL,
	"company_id" integer NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
ALTER TABLE "watch_settings" ADD CONSTRAINT "watch_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_states" ADD CONSTRAINT "watch_states_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_targets" ADD CONSTRAINT "watch_targets_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_targets" ADD CONSTRAINT "watch_targets_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_transitions" ADD CONSTRAINT "watch_transitions_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "watch_states_event_idx" ON "watch_states" USING btree ("event_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "watch_targets_due_idx" ON "watch_targets" USING btree ("observed_at" NULLS FIRST);--> statement-breakpoint
CREATE INDEX "watch_targets_company_idx" ON "watch_targets" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "watch_transitions_event_idx" ON "watch_transitions" USING btree ("event_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "watch_transitions_company_idx" ON "watch_transitions" USING btree ("company_id","at" DESC NULLS LAST);