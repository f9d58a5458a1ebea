ALTER TABLE "events" ADD COLUMN "stix_added" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "events_company_module_stix_idx" ON "events" USING btree ("company_id","module","stix_added","id");
--> statement-breakpoint
-- hand-written
-- The TAXII «added» cursor (#33): every INSERT, and every UPDATE of what the STIX objects are made of, stamps the row with
-- clock_timestamp(). The transaction id is taken first, so a writer that has a stamp always holds
-- an xid and RowExclusiveLock on events: the TAXII reader waits for such writers before it serves
-- rows stamped up to its horizon (taxii.repo.ts), so a late commit never lands behind a cursor.
CREATE FUNCTION events_stix_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_current_xact_id();
  NEW.stix_added := clock_timestamp();
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER events_stix_added BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION events_stix_added();--> statement-breakpoint
-- An UPDATE moves the row in the cursor only when what its STIX objects are made of changed (not
-- the search vector, indicators or SLA columns that backfills and triggers rewrite).
CREATE TRIGGER events_stix_changed BEFORE UPDATE ON events FOR EACH ROW
  WHEN ((OLD.company_id, OLD.module, OLD.title, OLD.status_id, OLD.priority_id, OLD.decision_id, OLD.tags, OLD.data,
         OLD.detected_at, OLD.created_at, OLD.updated_at)
        IS DISTINCT FROM
        (NEW.company_id, NEW.module, NEW.title, NEW.status_id, NEW.priority_id, NEW.decision_id, NEW.tags, NEW.data,
         NEW.detected_at, NEW.created_at, NEW.updated_at))
  EXECUTE FUNCTION events_stix_added();
