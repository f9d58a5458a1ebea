CREATE TABLE "sla_policies" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer,
	"priority" text NOT NULL,
	"triage_minutes" integer NOT NULL,
	"resolve_minutes" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "triaged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "sla_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "sla_stage" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "sla_notified_stage" text;--> statement-breakpoint
ALTER TABLE "sla_policies" ADD CONSTRAINT "sla_policies_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sla_policies_company_priority_uq" ON "sla_policies" USING btree (coalesce("company_id", 0),"priority");--> statement-breakpoint
CREATE INDEX "events_company_module_sla_idx" ON "events" USING btree ("company_id","module","sla_due_at","id");--> statement-breakpoint
CREATE INDEX "events_module_sla_idx" ON "events" USING btree ("module","sla_due_at","id","company_id");--> statement-breakpoint
CREATE INDEX "events_sla_due_idx" ON "events" USING btree ("sla_due_at","company_id","module") WHERE "events"."sla_due_at" IS NOT NULL;--> statement-breakpoint
-- SLA (docs/decisions.md «SLA»; contract sla.ts). The installation defaults, minutes (contract SLA_DEFAULTS).
INSERT INTO sla_policies (company_id, priority, triage_minutes, resolve_minutes) VALUES
  (NULL, 'critical', 60, 1440), (NULL, 'high', 240, 4320), (NULL, 'medium', 1440, 10080), (NULL, 'low', 4320, 43200)
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- The pending deadline of an event: none once resolved; the triage deadline until triaged, then the
-- resolution one; calendar time from creation. The company's policy for the priority, else the
-- installation default; an event without priority follows 'medium'. The one definition: the trigger
-- below, the policy recompute and this migration's backfill all call it.
CREATE OR REPLACE FUNCTION sla_due(p_company integer, p_priority integer, p_created timestamptz,
                                   p_triaged timestamptz, p_resolved timestamptz)
RETURNS timestamptz LANGUAGE plpgsql STABLE AS $$
DECLARE
  m integer;
BEGIN
  IF p_resolved IS NOT NULL THEN
    RETURN NULL;
  END IF;
  SELECT CASE WHEN p_triaged IS NULL THEN s.triage_minutes ELSE s.resolve_minutes END INTO m
    FROM sla_policies s
   WHERE s.priority = coalesce((SELECT p.code FROM event_priorities p WHERE p.id = p_priority), 'medium')
     AND (s.company_id = p_company OR s.company_id IS NULL)
   ORDER BY s.company_id NULLS LAST
   LIMIT 1;
  IF m IS NULL THEN
    RETURN NULL;
  END IF;
  RETURN p_created + make_interval(mins => m);
END $$;
--> statement-breakpoint
-- Every writer (API, batch, bulk, import) goes through this: first triage = the first status other than
-- the initial 'new'; resolution = a final status (is_final), cleared when the event leaves it.
CREATE OR REPLACE FUNCTION forpost_events_sla() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  st_code text;
  st_final boolean;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.status_id = OLD.status_id AND NEW.priority_id IS NOT DISTINCT FROM OLD.priority_id
     AND NEW.company_id = OLD.company_id AND NEW.created_at = OLD.created_at THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'INSERT' OR NEW.status_id <> OLD.status_id THEN
    SELECT s.code, s.is_final INTO st_code, st_final FROM event_statuses s WHERE s.id = NEW.status_id;
    IF st_code IS DISTINCT FROM 'new' THEN
      NEW.triaged_at := coalesce(NEW.triaged_at, now());
    END IF;
    IF coalesce(st_final, false) THEN
      NEW.resolved_at := coalesce(NEW.resolved_at, now());
    ELSE
      NEW.resolved_at := NULL;
    END IF;
  END IF;
  NEW.sla_due_at := sla_due(NEW.company_id, NEW.priority_id, NEW.created_at, NEW.triaged_at, NEW.resolved_at);
  NEW.sla_stage := CASE WHEN NEW.sla_due_at IS NULL THEN NULL WHEN NEW.triaged_at IS NULL THEN 'triage' ELSE 'resolve' END;
  RETURN NEW;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS events_sla ON events;
--> statement-breakpoint
CREATE TRIGGER events_sla BEFORE INSERT OR UPDATE OF status_id, priority_id, company_id, created_at ON events
  FOR EACH ROW EXECUTE FUNCTION forpost_events_sla();
--> statement-breakpoint
-- Backfill: events not in 'new' count as triaged, events in a final status as resolved, both at their last
-- change (updated_at — the best known time); deadlines already passed count as notified, so the breach job
-- does not flood the bell with the history of the installation.
UPDATE events e
   SET triaged_at = CASE WHEN s.code <> 'new' THEN e.updated_at END,
       resolved_at = CASE WHEN s.is_final THEN e.updated_at END
  FROM event_statuses s
 WHERE s.id = e.status_id AND (s.code <> 'new' OR s.is_final);
--> statement-breakpoint
UPDATE events SET sla_due_at = sla_due(company_id, priority_id, created_at, triaged_at, resolved_at);
--> statement-breakpoint
UPDATE events
   SET sla_stage = CASE WHEN triaged_at IS NULL THEN 'triage' ELSE 'resolve' END,
       sla_notified_stage = CASE WHEN sla_due_at < now() THEN CASE WHEN triaged_at IS NULL THEN 'triage' ELSE 'resolve' END END
 WHERE sla_due_at IS NOT NULL;
--> statement-breakpoint
-- The breach job's work list: open events whose current stage was not notified yet, by deadline.
CREATE INDEX IF NOT EXISTS events_sla_notify_idx ON events (sla_due_at)
  WHERE sla_due_at IS NOT NULL AND sla_notified_stage IS DISTINCT FROM sla_stage;
