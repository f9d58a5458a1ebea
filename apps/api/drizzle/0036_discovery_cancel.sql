-- A discovery run can be stopped (POST /discovery/runs/{id}/cancel): a queued run becomes 'cancelled' at
-- once, a running one gets this mark, which its worker reads between DNS queries before it ends the run as
-- 'cancelled' with what it found so far. The status is free text (no CHECK), so the new value needs no change.
ALTER TABLE "discovery_runs" ADD COLUMN "cancel_requested_at" timestamp with time zone;
