CREATE TABLE "hunt_ranges" (
	"id" serial PRIMARY KEY NOT NULL,
	"hunt_id" integer NOT NULL,
	"start" bigint NOT NULL,
	"end" bigint NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"lines" bigint DEFAULT 0 NOT NULL,
	"unrecognized" bigint DEFAULT 0 NOT NULL,
	"samples" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"heartbeat_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hunt_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"hunt_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"login" text NOT NULL,
	"event_id" bigint,
	"is_new" boolean NOT NULL,
	"corporate_url" boolean DEFAULT false NOT NULL,
	"service" text,
	"password_kind" text NOT NULL,
	"masked" text,
	"hmac" text,
	"strength" text,
	"hash_type" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hunts" (
	"id" serial PRIMARY KEY NOT NULL,
	"leak_id" integer NOT NULL,
	"doc_key" text NOT NULL,
	"file_name" text NOT NULL,
	"size" bigint NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"error" text,
	"created_by" integer,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hunt_ranges" ADD CONSTRAINT "hunt_ranges_hunt_id_hunts_id_fk" FOREIGN KEY ("hunt_id") REFERENCES "public"."hunts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hunt_results" ADD CONSTRAINT "hunt_results_hunt_id_hunts_id_fk" FOREIGN KEY ("hunt_id") REFERENCES "public"."hunts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hunt_results" ADD CONSTRAINT "hunt_results_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hunt_results" ADD CONSTRAINT "hunt_results_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hunts" ADD CONSTRAINT "hunts_leak_id_leaks_id_fk" FOREIGN KEY ("leak_id") REFERENCES "public"."leaks"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hunts" ADD CONSTRAINT "hunts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "hunt_ranges_uq" ON "hunt_ranges" USING btree ("hunt_id","start");--> statement-breakpoint
CREATE UNIQUE INDEX "hunt_results_uq" ON "hunt_results" USING btree ("hunt_id","company_id","login");--> statement-breakpoint
CREATE INDEX "hunt_results_company_idx" ON "hunt_results" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "hunt_results_event_idx" ON "hunt_results" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "hunt_results_hmac_idx" ON "hunt_results" USING btree ("hmac");--> statement-breakpoint
CREATE INDEX "hunts_leak_idx" ON "hunts" USING btree ("leak_id");--> statement-breakpoint
CREATE INDEX "hunts_created_by_idx" ON "hunts" USING btree ("created_by");