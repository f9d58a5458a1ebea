-- «Резюме аналитика»: the analyst's free text shown on the first page of a report (issue #30.9).
ALTER TABLE "reports" ADD COLUMN "summary" text;
