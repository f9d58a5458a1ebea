-- Every change of events is announced on the channel `forpost_events`: each instance drops the event
-- list pages it keeps (modules/events/list-cache.ts; docs/decisions.md, «Путь запроса: одна и та же
-- страница списка»). Names of companies and users shown in a list change under `forpost_access`
-- (0034_access_notify), which the list cache hears too. One notification per statement (and
-- PostgreSQL folds the same one within a transaction): an import batch announces once.
CREATE OR REPLACE FUNCTION forpost_events_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('forpost_events', '');
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS events_list_notify ON events;--> statement-breakpoint
CREATE TRIGGER events_list_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON events
  FOR EACH STATEMENT EXECUTE FUNCTION forpost_events_changed();
