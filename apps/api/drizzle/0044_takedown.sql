CREATE TABLE "takedown_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"request_id" bigint NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_user_id" integer,
	"actor_key_id" integer,
	"action" text NOT NULL,
	"from_state" text,
	"to_state" text,
	"comment" text
);
--> statement-breakpoint
CREATE TABLE "takedown_recipients" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"request_id" bigint NOT NULL,
	"company_id" integer NOT NULL,
	"position" integer NOT NULL,
	"kind" text NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"source" text,
	"status" text DEFAULT 'proposed' NOT NULL,
	"message_id" text,
	"sent_at" timestamp with time zone,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "takedown_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"event_id" bigint NOT NULL,
	"domain" text NOT NULL,
	"state" text DEFAULT 'draft' NOT NULL,
	"xarf_type" text NOT NULL,
	"comment" text,
	"registrar" text,
	"hosting" text,
	"evidence" jsonb NOT NULL,
	"previous_id" bigint,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"acknowledged_at" timestamp with time zone,
	"down_at" timestamp with time zone,
	"escalated_at" timestamp with time zone,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "takedown_settings" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"registrar_sla_hours" integer DEFAULT 48 NOT NULL,
	"hosting_sla_hours" integer DEFAULT 24 NOT NULL,
	"extra_recipients" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "takedown_log" ADD CONSTRAINT "takedown_log_request_id_takedown_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."takedown_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "takedown_recipients" ADD CONSTRAINT "takedown_recipients_request_id_takedown_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."takedown_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "takedown_requests" ADD CONSTRAINT "takedown_requests_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "takedown_requests" ADD CONSTRAINT "takedown_requests_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "takedown_settings" ADD CONSTRAINT "takedown_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "takedown_log_request_idx" ON "takedown_log" USING btree ("request_id","id");--> statement-breakpoint
CREATE INDEX "takedown_recipients_request_idx" ON "takedown_recipients" USING btree ("request_id","position");--> statement-breakpoint
CREATE INDEX "takedown_recipients_rate_idx" ON "takedown_recipients" USING btree (lower("email"),"sent_at");--> statement-breakpoint
CREATE INDEX "takedown_requests_company_idx" ON "takedown_requests" USING btree ("company_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "takedown_requests_event_idx" ON "takedown_requests" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "takedown_requests_open_idx" ON "takedown_requests" USING btree ("state") WHERE state IN ('sent', 'acknowledged', 'escalated', 'down');