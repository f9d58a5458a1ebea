CREATE TABLE "route_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"path" text NOT NULL,
	"target" text NOT NULL,
	"permanent" boolean DEFAULT false NOT NULL,
	"comment" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "route_rules_path_uq" UNIQUE("path")
);
--> statement-breakpoint
ALTER TABLE "route_rules" ADD CONSTRAINT "route_rules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "route_rules_created_by_idx" ON "route_rules" USING btree ("created_by");