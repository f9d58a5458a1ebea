-- A discovery run keeps why its result is incomplete: DNS errors and RDAP failures by reason, each with up to
-- five example names, and the sources (RDAP, CT) that were not configured when it started. Null for runs made
-- before this column: they read as having no recorded reasons.
ALTER TABLE "discovery_runs" ADD COLUMN "issues" jsonb;
