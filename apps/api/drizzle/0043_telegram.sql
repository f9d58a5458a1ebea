CREATE TABLE "telegram_sources" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"last_message_id" bigint,
	"state" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"collected_at" timestamp with time zone,
	"next_run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "telegram_channels_username_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "telegram_sources_username_uq" ON "telegram_sources" USING btree ("username");--> statement-breakpoint
CREATE INDEX "telegram_sources_due_idx" ON "telegram_sources" USING btree ("next_run_at");--> statement-breakpoint
CREATE UNIQUE INDEX "telegram_channels_username_company_uq" ON "telegram_channels" USING btree ("username","company_id");