CREATE TABLE "report_sends" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"report_id" integer NOT NULL,
	"recipients" text[] NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"message_id" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "report_sends" ADD CONSTRAINT "report_sends_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_sends" ADD CONSTRAINT "report_sends_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_sends_report_idx" ON "report_sends" USING btree ("report_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "report_sends_created_by_idx" ON "report_sends" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "report_sends_active_idx" ON "report_sends" USING btree ("id") WHERE "report_sends"."status" IN ('queued', 'sending');