-- Every change of events is announced on the channel `forpost_events`: each instance drops the event
-- list pages it keeps (modules/events/list-cache.ts; docs/decisions.md, «Путь запроса: одна и та же
-- страница списка»). Names of companies and users shown in a list change under `forpost_access`
-- (0034_access_notify), which the list cache hears too. One notification per statement (and
-- PostgreSQL folds the same one within a transaction): an import batch announces once. An UPDATE or
-- DELETE that touched no row announces nothing (the classifier's pollers run such statements every
-- 2 s): those look at their transition table; an INSERT always announces (a transition table would
-- copy every imported row once more).
CREATE OR REPLACE FUNCTION forpost_events_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('forpost_events', '');
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION forpost_events_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM changed_rows) THEN
    PERFORM pg_notify('forpost_events', '');
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS events_list_notify ON events;--> statement-breakpoint
CREATE TRIGGER events_list_notify AFTER INSERT OR TRUNCATE ON events
  FOR EACH STATEMENT EXECUTE FUNCTION forpost_events_changed();--> statement-breakpoint
DROP TRIGGER IF EXISTS events_list_update_notify ON events;--> statement-breakpoint
CREATE TRIGGER events_list_update_notify AFTER UPDATE ON events REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forpost_events_updated();--> statement-breakpoint
DROP TRIGGER IF EXISTS events_list_delete_notify ON events;--> statement-breakpoint
CREATE TRIGGER events_list_delete_notify AFTER DELETE ON events REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forpost_events_updated();
