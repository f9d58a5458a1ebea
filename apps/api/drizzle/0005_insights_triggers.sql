-- Analytics rollups and the classification queue, maintained by the database itself so that every
-- write path (API, batch operations, imports, direct SQL) is counted. See docs/architecture.md, «Аналитика».

-- Count changes of one statement, grouped by the rollup's dimensions: appended to event_count_deltas
-- (no row shared between writers, so no lock contention or deadlocks between concurrent imports).
CREATE OR REPLACE FUNCTION forpost_events_count_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO event_count_deltas (company_id, module, day, priority_id, status_id, connotation, delta)
  SELECT company_id, module, (created_at AT TIME ZONE 'Europe/Moscow')::date, coalesce(priority_id, 0), status_id,
         CASE WHEN module = 'media' THEN coalesce(data ->> 'connotation', 'Undefined') ELSE '' END, count(*)
  FROM new_rows
  GROUP BY 1, 2, 3, 4, 5, 6;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION forpost_events_count_del() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO event_count_deltas (company_id, module, day, priority_id, status_id, connotation, delta)
  SELECT company_id, module, (created_at AT TIME ZONE 'Europe/Moscow')::date, coalesce(priority_id, 0), status_id,
         CASE WHEN module = 'media' THEN coalesce(data ->> 'connotation', 'Undefined') ELSE '' END, -count(*)
  FROM old_rows
  GROUP BY 1, 2, 3, 4, 5, 6;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION forpost_events_count_upd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO event_count_deltas (company_id, module, day, priority_id, status_id, connotation, delta)
  SELECT c, m, d, p, s, n, sum(x)
  FROM (
    SELECT company_id AS c, module AS m, (created_at AT TIME ZONE 'Europe/Moscow')::date AS d, coalesce(priority_id, 0) AS p,
           status_id AS s, CASE WHEN module = 'media' THEN coalesce(data ->> 'connotation', 'Undefined') ELSE '' END AS n, -1 AS x
    FROM old_rows
    UNION ALL
    SELECT company_id, module, (created_at AT TIME ZONE 'Europe/Moscow')::date, coalesce(priority_id, 0),
           status_id, CASE WHEN module = 'media' THEN coalesce(data ->> 'connotation', 'Undefined') ELSE '' END, 1
    FROM new_rows
  ) t
  GROUP BY 1, 2, 3, 4, 5, 6
  HAVING sum(x) <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER events_count_ins AFTER INSERT ON events REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION forpost_events_count_ins();
--> statement-breakpoint
CREATE TRIGGER events_count_del AFTER DELETE ON events REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION forpost_events_count_del();
--> statement-breakpoint
CREATE TRIGGER events_count_upd AFTER UPDATE ON events REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION forpost_events_count_upd();
--> statement-breakpoint
-- New and imported events enter the classification queue (an explicit other state is kept).
CREATE OR REPLACE FUNCTION forpost_events_ml_enqueue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.ml_state = 'NotDetermined' THEN
    NEW.ml_state := 'InQueueToML';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER events_ml_enqueue BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION forpost_events_ml_enqueue();
--> statement-breakpoint
-- The classifier's work list: only events waiting, in flight or failed are in this index.
CREATE INDEX IF NOT EXISTS events_ml_pending_idx ON events (id) WHERE ml_state IN ('InQueueToML', 'SentToML', 'Failed');
