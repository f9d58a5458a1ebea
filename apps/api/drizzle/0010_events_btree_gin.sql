-- btree_gin lets one GIN index combine module and company with the full-text vector
-- (events_search_gin), so a search reads only the caller's rows. A trusted extension: a database
-- owner may create it without superuser rights (PostgreSQL ≥ 13).
CREATE EXTENSION IF NOT EXISTS btree_gin;
