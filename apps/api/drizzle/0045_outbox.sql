CREATE TABLE "integration_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"target_id" integer NOT NULL,
	"message_id" bigint NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"last_at" timestamp with time zone,
	"last_status" integer,
	"last_error" text,
	"last_ms" integer,
	"last_response" text,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "integration_targets" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"disabled_reason" text,
	"types" text[] DEFAULT '{}'::text[] NOT NULL,
	"modules" text[] DEFAULT '{}'::text[] NOT NULL,
	"min_priority" integer,
	"url" text,
	"host" text,
	"port" integer,
	"tls" boolean DEFAULT false NOT NULL,
	"facility" integer DEFAULT 16 NOT NULL,
	"secret" text,
	"previous_secret" text,
	"previous_until" timestamp with time zone,
	"backoff_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer,
	"type" text NOT NULL,
	"module" text,
	"priority_level" integer,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integration_deliveries" ADD CONSTRAINT "integration_deliveries_target_id_integration_targets_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."integration_targets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_deliveries" ADD CONSTRAINT "integration_deliveries_message_id_outbox_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."outbox_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_targets" ADD CONSTRAINT "integration_targets_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "integration_deliveries_target_idx" ON "integration_deliveries" USING btree ("target_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "integration_targets_company_idx" ON "integration_targets" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "outbox_messages_created_idx" ON "outbox_messages" USING btree ("created_at");
--> statement-breakpoint
-- hand-written
-- The worker's claim walks only pending deliveries, oldest due first.
CREATE INDEX "integration_deliveries_due_idx" ON "integration_deliveries" ("next_at", "id") WHERE "state" = 'pending';--> statement-breakpoint
-- Deleting old messages (cascade) finds their deliveries.
CREATE INDEX "integration_deliveries_message_idx" ON "integration_deliveries" ("message_id");
