CREATE TABLE "event_bulk_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"module" text NOT NULL,
	"op" jsonb NOT NULL,
	"filters" jsonb NOT NULL,
	"principal" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"message" text,
	"total" integer NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"max_id" bigint NOT NULL,
	"cursor" bigint DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"author_id" integer,
	"author_key_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"heartbeat_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "event_bulk_jobs" ADD CONSTRAINT "event_bulk_jobs_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_bulk_jobs_author_idx" ON "event_bulk_jobs" USING btree ("author_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "event_bulk_jobs_active_idx" ON "event_bulk_jobs" USING btree ("status") WHERE "event_bulk_jobs"."status" IN ('queued', 'running');