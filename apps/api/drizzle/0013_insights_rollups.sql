CREATE TABLE "event_day_counts" (
	"company_id" integer NOT NULL,
	"module" text NOT NULL,
	"day" date NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"p_none" integer DEFAULT 0 NOT NULL,
	"p_low" integer DEFAULT 0 NOT NULL,
	"p_medium" integer DEFAULT 0 NOT NULL,
	"p_high" integer DEFAULT 0 NOT NULL,
	"p_critical" integer DEFAULT 0 NOT NULL,
	"c_positive" integer DEFAULT 0 NOT NULL,
	"c_negative" integer DEFAULT 0 NOT NULL,
	"c_neutral" integer DEFAULT 0 NOT NULL,
	"c_undefined" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "event_day_counts_company_id_module_day_pk" PRIMARY KEY("company_id","module","day")
);
--> statement-breakpoint
CREATE TABLE "event_day_status_counts" (
	"company_id" integer NOT NULL,
	"module" text NOT NULL,
	"day" date NOT NULL,
	"status_id" integer NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "event_day_status_counts_company_id_module_day_status_id_pk" PRIMARY KEY("company_id","module","day","status_id")
);
--> statement-breakpoint
ALTER TABLE "event_day_counts" ADD CONSTRAINT "event_day_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_day_status_counts" ADD CONSTRAINT "event_day_status_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_day_counts_day_idx" ON "event_day_counts" USING btree ("day","module");--> statement-breakpoint
CREATE INDEX "event_day_status_counts_module_day_idx" ON "event_day_status_counts" USING btree ("module","day");