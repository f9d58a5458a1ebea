-- «Отменить» after a change of many events (issue #30): per event and field what the change did, for its author
-- and a short while; a bulk job by filter fills its record chunk by chunk (event_bulk_jobs.undo_id).
CREATE TABLE "event_undo_items" (
	"undo_id" uuid NOT NULL,
	"event_id" bigint NOT NULL,
	"field" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	CONSTRAINT "event_undo_items_undo_id_event_id_field_pk" PRIMARY KEY("undo_id","event_id","field")
);
--> statement-breakpoint
CREATE TABLE "event_undos" (
	"id" uuid PRIMARY KEY NOT NULL,
	"module" text NOT NULL,
	"company_id" integer,
	"author_id" integer NOT NULL,
	"author_key_id" integer,
	"summary" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"undone_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "event_bulk_jobs" ADD COLUMN "undo_id" uuid;--> statement-breakpoint
ALTER TABLE "event_undo_items" ADD CONSTRAINT "event_undo_items_undo_id_event_undos_id_fk" FOREIGN KEY ("undo_id") REFERENCES "public"."event_undos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_undos" ADD CONSTRAINT "event_undos_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_undos" ADD CONSTRAINT "event_undos_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_undos_expires_idx" ON "event_undos" USING btree ("expires_at");