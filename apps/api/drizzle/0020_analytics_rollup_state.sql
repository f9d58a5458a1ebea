CREATE TABLE "event_rollup_state" (
	"id" integer PRIMARY KEY NOT NULL,
	"generation" bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO "event_rollup_state" ("id", "generation") VALUES (1, 0) ON CONFLICT DO NOTHING;
