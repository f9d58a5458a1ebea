CREATE TABLE "event_module_day_counts" (
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
	CONSTRAINT "event_module_day_counts_module_day_pk" PRIMARY KEY("module","day")
);
--> statement-breakpoint
CREATE TABLE "event_module_day_status_counts" (
	"module" text NOT NULL,
	"day" date NOT NULL,
	"status_id" integer NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "event_module_day_status_counts_module_day_status_id_pk" PRIMARY KEY("module","day","status_id")
);
