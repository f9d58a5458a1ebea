CREATE TABLE "import_spans" (
	"import_id" integer NOT NULL,
	"from_row" integer NOT NULL,
	"to_row" integer NOT NULL,
	CONSTRAINT "import_spans_import_id_from_row_pk" PRIMARY KEY("import_id","from_row")
);
--> statement-breakpoint
DROP INDEX "import_row_errors_import_idx";--> statement-breakpoint
ALTER TABLE "import_spans" ADD CONSTRAINT "import_spans_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_row_errors_import_row_idx" ON "import_row_errors" USING btree ("import_id","row","id");