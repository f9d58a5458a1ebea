CREATE TABLE "event_count_deltas" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"module" text NOT NULL,
	"day" date NOT NULL,
	"priority_id" integer NOT NULL,
	"status_id" integer NOT NULL,
	"connotation" text NOT NULL,
	"delta" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_daily_counts" (
	"company_id" integer NOT NULL,
	"module" text NOT NULL,
	"day" date NOT NULL,
	"priority_id" integer NOT NULL,
	"status_id" integer NOT NULL,
	"connotation" text NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "event_daily_counts_company_id_module_day_priority_id_status_id_connotation_pk" PRIMARY KEY("company_id","module","day","priority_id","status_id","connotation")
);
--> statement-breakpoint
CREATE TABLE "event_ml" (
	"event_id" bigint PRIMARY KEY NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"classifier" text,
	"result" jsonb,
	"last_error" text,
	"next_attempt_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mailing_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"mailing_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"event_count" integer DEFAULT 0 NOT NULL,
	"listed_count" integer DEFAULT 0 NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"recipients" text[] NOT NULL,
	"last_error" text,
	"message_id" text,
	"next_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "mailing_events" (
	"mailing_id" integer NOT NULL,
	"event_id" bigint NOT NULL,
	"delivery_id" bigint,
	"matched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mailing_events_mailing_id_event_id_pk" PRIMARY KEY("mailing_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "mailings" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer,
	"name" text NOT NULL,
	"recipients" text[] NOT NULL,
	"filters" jsonb NOT NULL,
	"params" jsonb NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"starts_at" timestamp with time zone DEFAULT now() NOT NULL,
	"next_digest_at" timestamp with time zone,
	"last_sent_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"period_from" date NOT NULL,
	"period_to" date NOT NULL,
	"modules" text[] NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"doc_id" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"generated_at" timestamp with time zone,
	"last_sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "event_daily_counts" ADD CONSTRAINT "event_daily_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_ml" ADD CONSTRAINT "event_ml_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailing_deliveries" ADD CONSTRAINT "mailing_deliveries_mailing_id_mailings_id_fk" FOREIGN KEY ("mailing_id") REFERENCES "public"."mailings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailing_events" ADD CONSTRAINT "mailing_events_mailing_id_mailings_id_fk" FOREIGN KEY ("mailing_id") REFERENCES "public"."mailings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailing_events" ADD CONSTRAINT "mailing_events_delivery_id_mailing_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."mailing_deliveries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailings" ADD CONSTRAINT "mailings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailings" ADD CONSTRAINT "mailings_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_doc_id_docs_id_fk" FOREIGN KEY ("doc_id") REFERENCES "public"."docs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_daily_counts_day_idx" ON "event_daily_counts" USING btree ("day","module");--> statement-breakpoint
CREATE INDEX "event_ml_retry_idx" ON "event_ml" USING btree ("next_attempt_at") WHERE "event_ml"."next_attempt_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "mailing_deliveries_mailing_idx" ON "mailing_deliveries" USING btree ("mailing_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "mailing_deliveries_due_idx" ON "mailing_deliveries" USING btree ("next_attempt_at") WHERE "mailing_deliveries"."status" IN ('pending', 'retry', 'sending');--> statement-breakpoint
CREATE INDEX "mailing_events_delivery_idx" ON "mailing_events" USING btree ("delivery_id");--> statement-breakpoint
CREATE INDEX "mailing_events_pending_idx" ON "mailing_events" USING btree ("mailing_id") WHERE "mailing_events"."delivery_id" IS NULL;--> statement-breakpoint
CREATE INDEX "mailings_company_idx" ON "mailings" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "mailings_created_by_idx" ON "mailings" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "reports_company_idx" ON "reports" USING btree ("company_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "reports_doc_idx" ON "reports" USING btree ("doc_id");--> statement-breakpoint
CREATE INDEX "reports_created_by_idx" ON "reports" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "reports_queued_idx" ON "reports" USING btree ("id") WHERE "reports"."status" IN ('queued', 'rendering');