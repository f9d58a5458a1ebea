-- The lexicon of the full-text index: every word (lexeme) of events.search from three characters on,
-- digits-only words excepted (a prefix query never expands to those). A search-as-you-type prefix
-- («sber») is expanded through it into exact words (events.query prefixQuery): a GIN partial match
-- reads whole posting lists, exact words let the index skip. Kept by statement triggers, so every
-- write path (API, batch operations, imports, direct SQL) feeds it. Appended only, without a
-- unique constraint, so that concurrent writers never wait on each other (a word added by two
-- transactions at once is stored twice; readers use DISTINCT); a word whose events are gone stays
-- and simply matches nothing. C collation: LIKE 'prefix%' runs as a range scan of the index.
CREATE TABLE IF NOT EXISTS event_search_words (word text COLLATE "C" NOT NULL);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS event_search_words_word_idx ON event_search_words (word);
--> statement-breakpoint
-- The statement's distinct words first (a batch of 5 000 events has ~75 000 words, a few thousand
-- distinct), then one index probe each. enable_seqscan is off inside the function only, so that the
-- probe uses the index even when the lexicon's statistics are stale (a fresh, fast-growing table):
-- with them, a probe per word by a sequential scan made a bulk load four times slower.
CREATE OR REPLACE FUNCTION forpost_event_search_words_ins() RETURNS trigger LANGUAGE plpgsql
SET enable_seqscan = off AS $$
BEGIN
  INSERT INTO event_search_words (word)
  SELECT d.word FROM (
    SELECT DISTINCT w.word COLLATE "C" AS word
    FROM new_rows n CROSS JOIN LATERAL unnest(tsvector_to_array(n.search)) AS w(word)
    WHERE length(w.word) >= 3 AND w.word !~ '^[0-9]+$'
  ) d
  WHERE NOT EXISTS (SELECT 1 FROM event_search_words x WHERE x.word = d.word);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION forpost_event_search_words_upd() RETURNS trigger LANGUAGE plpgsql
SET enable_seqscan = off AS $$
BEGIN
  INSERT INTO event_search_words (word)
  SELECT d.word FROM (
    SELECT DISTINCT w.word COLLATE "C" AS word
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    CROSS JOIN LATERAL unnest(tsvector_to_array(n.search)) AS w(word)
    WHERE n.search IS DISTINCT FROM o.search AND length(w.word) >= 3 AND w.word !~ '^[0-9]+$'
  ) d
  WHERE NOT EXISTS (SELECT 1 FROM event_search_words x WHERE x.word = d.word);
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS events_search_words_ins ON events;
--> statement-breakpoint
CREATE TRIGGER events_search_words_ins AFTER INSERT ON events REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forpost_event_search_words_ins();
--> statement-breakpoint
DROP TRIGGER IF EXISTS events_search_words_upd ON events;
--> statement-breakpoint
CREATE TRIGGER events_search_words_upd AFTER UPDATE ON events REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION forpost_event_search_words_upd();
--> statement-breakpoint
-- The words of the events already stored.
INSERT INTO event_search_words (word)
SELECT word COLLATE "C" FROM ts_stat('SELECT search FROM events')
WHERE length(word) >= 3 AND word !~ '^[0-9]+$'
  AND NOT EXISTS (SELECT 1 FROM event_search_words x WHERE x.word = ts_stat.word COLLATE "C");
--> statement-breakpoint
ANALYZE event_search_words;
