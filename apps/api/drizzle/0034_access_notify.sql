-- Every change that can narrow who may do what is announced on the channel `forpost_access`: each
-- instance drops its cache of sessions and API keys (modules/auth/access-cache.ts; docs/decisions.md,
-- «Путь запроса: кто вызывает — из памяти процесса»). Triggers, so that no code path and no process
-- (a job, psql) can change access without it. Not announced: a session's touch (last seen, idle
-- expiry pushed later) and an API key's use record, which only ever widen nothing.
CREATE OR REPLACE FUNCTION forpost_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('forpost_access', TG_TABLE_NAME);
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS users_access_notify ON users;--> statement-breakpoint
CREATE TRIGGER users_access_notify AFTER UPDATE OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION forpost_access_changed();--> statement-breakpoint
DROP TRIGGER IF EXISTS companies_access_notify ON companies;--> statement-breakpoint
CREATE TRIGGER companies_access_notify AFTER UPDATE OR DELETE OR TRUNCATE ON companies
  FOR EACH STATEMENT EXECUTE FUNCTION forpost_access_changed();--> statement-breakpoint
DROP TRIGGER IF EXISTS company_members_access_notify ON company_members;--> statement-breakpoint
CREATE TRIGGER company_members_access_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON company_members
  FOR EACH STATEMENT EXECUTE FUNCTION forpost_access_changed();--> statement-breakpoint
DROP TRIGGER IF EXISTS sessions_access_notify ON sessions;--> statement-breakpoint
CREATE TRIGGER sessions_access_notify AFTER UPDATE ON sessions FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.user_id IS DISTINCT FROM NEW.user_id
        OR NEW.idle_expires_at < OLD.idle_expires_at OR NEW.absolute_expires_at < OLD.absolute_expires_at)
  EXECUTE FUNCTION forpost_access_changed();--> statement-breakpoint
DROP TRIGGER IF EXISTS sessions_access_gone_notify ON sessions;--> statement-breakpoint
CREATE TRIGGER sessions_access_gone_notify AFTER DELETE OR TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION forpost_access_changed();--> statement-breakpoint
DROP TRIGGER IF EXISTS api_keys_access_notify ON api_keys;--> statement-breakpoint
CREATE TRIGGER api_keys_access_notify AFTER UPDATE ON api_keys FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'last_used_at' - 'last_used_ip') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at' - 'last_used_ip'))
  EXECUTE FUNCTION forpost_access_changed();--> statement-breakpoint
DROP TRIGGER IF EXISTS api_keys_access_gone_notify ON api_keys;--> statement-breakpoint
CREATE TRIGGER api_keys_access_gone_notify AFTER DELETE OR TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION forpost_access_changed();
