-- Fills the all-companies rollups (module × day) from the per-company ones, so the dashboards read
-- them from the first request after the upgrade. Readers add the pending deltas to both: the
-- deltas of companies deleted meanwhile (whose rows the cascade already removed from the
-- per-company rollups) are subtracted here, so that folding them later leaves the totals exact.
-- The fold worker is held off (its advisory lock) while the totals are copied.
SELECT pg_advisory_xact_lock(7320114101);
--> statement-breakpoint
INSERT INTO event_module_day_counts (module, day, total, p_none, p_low, p_medium, p_high, p_critical, c_positive, c_negative, c_neutral, c_undefined)
SELECT module, day, sum(total), sum(p_none), sum(p_low), sum(p_medium), sum(p_high), sum(p_critical),
       sum(c_positive), sum(c_negative), sum(c_neutral), sum(c_undefined)
FROM (
  SELECT module, day, total, p_none, p_low, p_medium, p_high, p_critical, c_positive, c_negative, c_neutral, c_undefined
  FROM event_day_counts
  UNION ALL
  SELECT d.module, d.day, -d.delta,
         CASE WHEN p.code IS NULL THEN -d.delta ELSE 0 END,
         CASE WHEN p.code = 'low' THEN -d.delta ELSE 0 END,
         CASE WHEN p.code = 'medium' THEN -d.delta ELSE 0 END,
         CASE WHEN p.code = 'high' THEN -d.delta ELSE 0 END,
         CASE WHEN p.code = 'critical' THEN -d.delta ELSE 0 END,
         CASE WHEN d.connotation = 'Positive' THEN -d.delta ELSE 0 END,
         CASE WHEN d.connotation = 'Negative' THEN -d.delta ELSE 0 END,
         CASE WHEN d.connotation = 'Neutral' THEN -d.delta ELSE 0 END,
         CASE WHEN d.connotation = 'Undefined' THEN -d.delta ELSE 0 END
  FROM event_count_deltas d LEFT JOIN event_priorities p ON p.id = d.priority_id
  WHERE NOT EXISTS (SELECT 1 FROM companies c WHERE c.id = d.company_id)
) t
GROUP BY module, day;
--> statement-breakpoint
INSERT INTO event_module_day_status_counts (module, day, status_id, n)
SELECT module, day, status_id, sum(n)
FROM (
  SELECT module, day, status_id, n FROM event_day_status_counts
  UNION ALL
  SELECT d.module, d.day, d.status_id, -d.delta FROM event_count_deltas d
  WHERE NOT EXISTS (SELECT 1 FROM companies c WHERE c.id = d.company_id)
) t
GROUP BY module, day, status_id
HAVING sum(n) <> 0;
