CREATE TABLE "mailing_transitions" (
	"mailing_id" integer NOT NULL,
	"transition_id" bigint NOT NULL,
	"event_id" bigint NOT NULL,
	"delivery_id" bigint,
	"matched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mailing_transitions_mailing_id_transition_id_pk" PRIMARY KEY("mailing_id","transition_id")
);
--> statement-breakpoint
ALTER TABLE "mailing_transitions" ADD CONSTRAINT "mailing_transitions_mailing_id_mailings_id_fk" FOREIGN KEY ("mailing_id") REFERENCES "public"."mailings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailing_transitions" ADD CONSTRAINT "mailing_transitions_delivery_id_mailing_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."mailing_deliveries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mailing_transitions_delivery_idx" ON "mailing_transitions" USING btree ("delivery_id");--> statement-breakpoint
CREATE INDEX "mailing_transitions_pending_idx" ON "mailing_transitions" USING btree ("mailing_id") WHERE "mailing_transitions"."delivery_id" IS NULL;