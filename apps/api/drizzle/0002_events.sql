CREATE TABLE "account_leaks" (
	"event_id" bigint NOT NULL,
	"leak_id" integer NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_leaks_event_id_leak_id_pk" PRIMARY KEY("event_id","leak_id")
);
--> statement-breakpoint
CREATE TABLE "app_seeds" (
	"name" text PRIMARY KEY NOT NULL,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "docs" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"company_id" integer,
	"event_id" bigint,
	"owner_user_id" integer,
	"name" text NOT NULL,
	"mimetype" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "domain_allowlist" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"domain" text NOT NULL,
	"domain_punycode" text NOT NULL,
	"comment" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "domain_snapshots" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" bigint NOT NULL,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL,
	"screenshot_doc_id" integer,
	"ip" text,
	"http_status" integer,
	"page_title" text
);
--> statement-breakpoint
CREATE TABLE "event_comments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" bigint NOT NULL,
	"author_id" integer,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_decisions" (
	"id" serial PRIMARY KEY NOT NULL,
	"module" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" bigint NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_user_id" integer,
	"actor_key_id" integer,
	"action" text NOT NULL,
	"field" text,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE TABLE "event_priorities" (
	"id" serial PRIMARY KEY NOT NULL,
	"module" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"level" integer NOT NULL,
	"color" text DEFAULT 'default' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_statuses" (
	"id" serial PRIMARY KEY NOT NULL,
	"module" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"is_final" boolean DEFAULT false NOT NULL,
	"color" text DEFAULT 'default' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"module" text NOT NULL,
	"title" text NOT NULL,
	"status_id" integer NOT NULL,
	"priority_id" integer,
	"decision_id" integer,
	"source" text DEFAULT 'Other' NOT NULL,
	"ml_state" text DEFAULT 'NotDetermined' NOT NULL,
	"whitelist_kind" text,
	"fingerprint" text NOT NULL,
	"tags" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"search" "tsvector" NOT NULL,
	"detected_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"author_id" integer,
	"author_key_id" integer,
	"import_id" integer
);
--> statement-breakpoint
CREATE TABLE "leak_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leaks" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"leak_type_id" integer,
	"leaked_at" date,
	"records_count" bigint,
	"source_url" text,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "repository_files" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" bigint NOT NULL,
	"path" text NOT NULL,
	"url" text,
	"matched" text,
	"doc_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"color" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_leaks" ADD CONSTRAINT "account_leaks_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_leaks" ADD CONSTRAINT "account_leaks_leak_id_leaks_id_fk" FOREIGN KEY ("leak_id") REFERENCES "public"."leaks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_leaks" ADD CONSTRAINT "account_leaks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "docs" ADD CONSTRAINT "docs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "docs" ADD CONSTRAINT "docs_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "docs" ADD CONSTRAINT "docs_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_allowlist" ADD CONSTRAINT "domain_allowlist_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_allowlist" ADD CONSTRAINT "domain_allowlist_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_snapshots" ADD CONSTRAINT "domain_snapshots_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_snapshots" ADD CONSTRAINT "domain_snapshots_screenshot_doc_id_docs_id_fk" FOREIGN KEY ("screenshot_doc_id") REFERENCES "public"."docs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_comments" ADD CONSTRAINT "event_comments_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_comments" ADD CONSTRAINT "event_comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_history" ADD CONSTRAINT "event_history_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_history" ADD CONSTRAINT "event_history_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leaks" ADD CONSTRAINT "leaks_leak_type_id_leak_types_id_fk" FOREIGN KEY ("leak_type_id") REFERENCES "public"."leak_types"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repository_files" ADD CONSTRAINT "repository_files_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repository_files" ADD CONSTRAINT "repository_files_doc_id_docs_id_fk" FOREIGN KEY ("doc_id") REFERENCES "public"."docs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_leaks_leak_idx" ON "account_leaks" USING btree ("leak_id");--> statement-breakpoint
CREATE INDEX "account_leaks_created_by_idx" ON "account_leaks" USING btree ("created_by");--> statement-breakpoint
CREATE UNIQUE INDEX "docs_storage_key_uq" ON "docs" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "docs_company_idx" ON "docs" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "docs_event_idx" ON "docs" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "docs_owner_idx" ON "docs" USING btree ("owner_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "domain_allowlist_company_domain_uq" ON "domain_allowlist" USING btree ("company_id","domain_punycode");--> statement-breakpoint
CREATE INDEX "domain_allowlist_created_by_idx" ON "domain_allowlist" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "domain_snapshots_event_idx" ON "domain_snapshots" USING btree ("event_id","taken_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "domain_snapshots_doc_idx" ON "domain_snapshots" USING btree ("screenshot_doc_id");--> statement-breakpoint
CREATE INDEX "event_comments_event_idx" ON "event_comments" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "event_comments_author_idx" ON "event_comments" USING btree ("author_id");--> statement-breakpoint
CREATE UNIQUE INDEX "event_decisions_module_code_uq" ON "event_decisions" USING btree ("module","code");--> statement-breakpoint
CREATE INDEX "event_history_event_idx" ON "event_history" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "event_history_actor_idx" ON "event_history" USING btree ("actor_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "event_priorities_module_code_uq" ON "event_priorities" USING btree ("module","code");--> statement-breakpoint
CREATE UNIQUE INDEX "event_statuses_module_code_uq" ON "event_statuses" USING btree ("module","code");--> statement-breakpoint
CREATE UNIQUE INDEX "events_fingerprint_uq" ON "events" USING btree ("company_id","module","fingerprint");--> statement-breakpoint
CREATE INDEX "events_company_module_created_idx" ON "events" USING btree ("company_id","module","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_module_created_idx" ON "events" USING btree ("module","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_company_module_status_idx" ON "events" USING btree ("company_id","module","status_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_module_status_idx" ON "events" USING btree ("module","status_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_company_module_priority_idx" ON "events" USING btree ("company_id","module","priority_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_company_module_detected_idx" ON "events" USING btree ("company_id","module","detected_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_search_gin" ON "events" USING gin ("search");--> statement-breakpoint
CREATE INDEX "events_tags_gin" ON "events" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "events_author_idx" ON "events" USING btree ("author_id");--> statement-breakpoint
CREATE INDEX "events_import_idx" ON "events" USING btree ("import_id") WHERE "events"."import_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "leak_types_code_uq" ON "leak_types" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "leaks_name_lower_uq" ON "leaks" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "leaks_type_idx" ON "leaks" USING btree ("leak_type_id");--> statement-breakpoint
CREATE UNIQUE INDEX "media_types_name_lower_uq" ON "media_types" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "repository_files_event_idx" ON "repository_files" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "repository_files_doc_idx" ON "repository_files" USING btree ("doc_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tags_name_lower_uq" ON "tags" USING btree (lower("name"));