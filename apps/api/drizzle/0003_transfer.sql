CREATE TABLE "exports" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"key_id" integer,
	"module" text NOT NULL,
	"name" text NOT NULL,
	"format" text NOT NULL,
	"fields" jsonb NOT NULL,
	"filters" jsonb NOT NULL,
	"scope" integer[],
	"reveal_scope" integer[],
	"status" text DEFAULT 'queued' NOT NULL,
	"message" text,
	"rows_total" integer,
	"rows_written" integer DEFAULT 0 NOT NULL,
	"size" bigint,
	"storage_key" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"heartbeat_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "import_leaks" (
	"import_id" integer NOT NULL,
	"leak_id" integer NOT NULL,
	CONSTRAINT "import_leaks_import_id_leak_id_pk" PRIMARY KEY("import_id","leak_id")
);
--> statement-breakpoint
CREATE TABLE "import_row_errors" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"import_id" integer NOT NULL,
	"row" integer NOT NULL,
	"column" text,
	"value" text,
	"message" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"module" text NOT NULL,
	"company_id" integer,
	"doc_id" integer,
	"file_name" text NOT NULL,
	"file_size" bigint NOT NULL,
	"format" text NOT NULL,
	"encoding" text,
	"delimiter" text,
	"headers" jsonb NOT NULL,
	"mapping" jsonb NOT NULL,
	"mode" text DEFAULT 'update' NOT NULL,
	"status" text DEFAULT 'uploaded' NOT NULL,
	"message" text,
	"rows_total" integer,
	"rows_read" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"errors_count" integer DEFAULT 0 NOT NULL,
	"cursor" integer DEFAULT 0 NOT NULL,
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
ALTER TABLE "exports" ADD CONSTRAINT "exports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_leaks" ADD CONSTRAINT "import_leaks_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_leaks" ADD CONSTRAINT "import_leaks_leak_id_leaks_id_fk" FOREIGN KEY ("leak_id") REFERENCES "public"."leaks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_row_errors" ADD CONSTRAINT "import_row_errors_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_doc_id_docs_id_fk" FOREIGN KEY ("doc_id") REFERENCES "public"."docs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exports_user_created_idx" ON "exports" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "exports_created_idx" ON "exports" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "exports_active_idx" ON "exports" USING btree ("status") WHERE "exports"."status" IN ('queued', 'running');--> statement-breakpoint
CREATE INDEX "import_leaks_leak_idx" ON "import_leaks" USING btree ("leak_id");--> statement-breakpoint
CREATE INDEX "import_row_errors_import_idx" ON "import_row_errors" USING btree ("import_id","id");--> statement-breakpoint
CREATE INDEX "imports_module_created_idx" ON "imports" USING btree ("module","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "imports_company_idx" ON "imports" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "imports_doc_idx" ON "imports" USING btree ("doc_id");--> statement-breakpoint
CREATE INDEX "imports_author_idx" ON "imports" USING btree ("author_id");--> statement-breakpoint
CREATE INDEX "imports_active_idx" ON "imports" USING btree ("status") WHERE "imports"."status" IN ('queued', 'running');