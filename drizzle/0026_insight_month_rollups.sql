CREATE TABLE "form_insight_months" (
	"form_id" text NOT NULL,
	"environment_id" text NOT NULL,
	"month" timestamp with time zone NOT NULL,
	"segment" text NOT NULL,
	"device" text NOT NULL,
	"language" text NOT NULL,
	"referrer" text NOT NULL,
	"hidden" jsonb NOT NULL,
	"metric" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "form_insight_months_form_id_month_segment_metric_pk" PRIMARY KEY("form_id","month","segment","metric")
);
--> statement-breakpoint
ALTER TABLE "form_insight_months" ADD CONSTRAINT "form_insight_months_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_insight_months" ADD CONSTRAINT "form_insight_months_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "form_insight_months_environment_month_idx" ON "form_insight_months" USING btree ("environment_id","month");--> statement-breakpoint
-- hand-written
-- form_insight_days and form_insight_months are the per-UTC-day and per-UTC-month sums of
-- form_insight_counts, kept in the writer's statement by three statement-level triggers with transition
-- tables (one per event: a trigger with transition tables has one event). Each aggregates the changed
-- hour rows once, by day, then those day changes by month, and changes both tables in one statement, in
-- one order (days, then months; each by form, period, segment, metric), so concurrent writers queue on a
-- row rather than deadlock. A row that reaches zero goes (with its hidden values); deleting hour rows only
-- subtracts, never inserts, so a cascade from a deleted form finds no row to recreate.
DROP TRIGGER "form_insight_counts_days" ON "form_insight_counts";
--> statement-breakpoint
DROP FUNCTION "form_insight_days_follow"();
--> statement-breakpoint
CREATE FUNCTION "form_insight_rollups_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "emptied" boolean;
BEGIN
  -- An upsert that only updated fires this with no rows.
  IF NOT EXISTS (SELECT FROM "new_rows") THEN
    RETURN NULL;
  END IF;
  WITH "delta" AS (
    SELECT "form_id", min("environment_id") AS "environment_id", date_trunc('day', "hour", 'UTC') AS "day", "segment", min("device") AS "device",
      min("language") AS "language", min("referrer") AS "referrer", (array_agg("hidden"))[1] AS "hidden", "metric", sum("count") AS "n"
    FROM "new_rows" GROUP BY "form_id", 3, "segment", "metric"
  ), "days" AS (
    INSERT INTO "form_insight_days" AS t ("form_id", "environment_id", "day", "segment", "device", "language", "referrer", "hidden", "metric", "count")
      SELECT "form_id", "environment_id", "day", "segment", "device", "language", "referrer", "hidden", "metric", "n" FROM "delta"
      WHERE "n" <> 0 ORDER BY "form_id", "day", "segment", "metric"
      ON CONFLICT ("form_id", "day", "segment", "metric") DO UPDATE SET "count" = t."count" + excluded."count"
      RETURNING t."count"
  ), "months" AS (
    INSERT INTO "form_insight_months" AS t ("form_id", "environment_id", "month", "segment", "device", "language", "referrer", "hidden", "metric", "count")
      SELECT "form_id", min("environment_id"), date_trunc('month', "day", 'UTC'), "segment", min("device"), min("language"), min("referrer"),
        (array_agg("hidden"))[1], "metric", sum("n")
      FROM "delta" GROUP BY "form_id", 3, "segment", "metric" HAVING sum("n") <> 0 ORDER BY "form_id", 3, "segment", "metric"
      ON CONFLICT ("form_id", "month", "segment", "metric") DO UPDATE SET "count" = t."count" + excluded."count"
      RETURNING t."count"
  )
  -- Each CTE read whole, days first: the order rows are locked in.
  SELECT coalesce((SELECT bool_or("count" = 0) FROM "days"), false) OR coalesce((SELECT bool_or("count" = 0) FROM "months"), false) INTO "emptied";
  IF "emptied" THEN
    DELETE FROM "form_insight_days" t USING "new_rows" r
      WHERE t."form_id" = r."form_id" AND t."day" = date_trunc('day', r."hour", 'UTC') AND t."segment" = r."segment" AND t."metric" = r."metric" AND t."count" = 0;
    DELETE FROM "form_insight_months" t USING "new_rows" r
      WHERE t."form_id" = r."form_id" AND t."month" = date_trunc('month', r."hour", 'UTC') AND t."segment" = r."segment" AND t."metric" = r."metric" AND t."count" = 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "form_insight_rollups_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "emptied" boolean;
BEGIN
  -- An upsert that only inserted fires this with no rows.
  IF NOT EXISTS (SELECT FROM "new_rows") THEN
    RETURN NULL;
  END IF;
  WITH "changes" AS (
    SELECT "form_id", "environment_id", "hour", "segment", "device", "language", "referrer", "hidden", "metric", "count" FROM "new_rows"
    UNION ALL
    SELECT "form_id", "environment_id", "hour", "segment", "device", "language", "referrer", "hidden", "metric", -"count" FROM "old_rows"
  ), "delta" AS (
    SELECT "form_id", min("environment_id") AS "environment_id", date_trunc('day', "hour", 'UTC') AS "day", "segment", min("device") AS "device",
      min("language") AS "language", min("referrer") AS "referrer", (array_agg("hidden"))[1] AS "hidden", "metric", sum("count") AS "n"
    FROM "changes" GROUP BY "form_id", 3, "segment", "metric"
  ), "days" AS (
    INSERT INTO "form_insight_days" AS t ("form_id", "environment_id", "day", "segment", "device", "language", "referrer", "hidden", "metric", "count")
      SELECT "form_id", "environment_id", "day", "segment", "device", "language", "referrer", "hidden", "metric", "n" FROM "delta"
      WHERE "n" <> 0 ORDER BY "form_id", "day", "segment", "metric"
      ON CONFLICT ("form_id", "day", "segment", "metric") DO UPDATE SET "count" = t."count" + excluded."count"
      RETURNING t."count"
  ), "months" AS (
    INSERT INTO "form_insight_months" AS t ("form_id", "environment_id", "month", "segment", "device", "language", "referrer", "hidden", "metric", "count")
      SELECT "form_id", min("environment_id"), date_trunc('month', "day", 'UTC'), "segment", min("device"), min("language"), min("referrer"),
        (array_agg("hidden"))[1], "metric", sum("n")
      FROM "delta" GROUP BY "form_id", 3, "segment", "metric" HAVING sum("n") <> 0 ORDER BY "form_id", 3, "segment", "metric"
      ON CONFLICT ("form_id", "month", "segment", "metric") DO UPDATE SET "count" = t."count" + excluded."count"
      RETURNING t."count"
  )
  SELECT coalesce((SELECT bool_or("count" = 0) FROM "days"), false) OR coalesce((SELECT bool_or("count" = 0) FROM "months"), false) INTO "emptied";
  IF "emptied" THEN
    DELETE FROM "form_insight_days" t USING "old_rows" r
      WHERE t."form_id" = r."form_id" AND t."day" = date_trunc('day', r."hour", 'UTC') AND t."segment" = r."segment" AND t."metric" = r."metric" AND t."count" = 0;
    DELETE FROM "form_insight_months" t USING "old_rows" r
      WHERE t."form_id" = r."form_id" AND t."month" = date_trunc('month', r."hour", 'UTC') AND t."segment" = r."segment" AND t."metric" = r."metric" AND t."count" = 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "form_insight_rollups_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "emptied" boolean;
BEGIN
  WITH "delta" AS (
    SELECT "form_id", date_trunc('day', "hour", 'UTC') AS "day", "segment", "metric", sum("count") AS "n"
    FROM "old_rows" GROUP BY "form_id", 2, "segment", "metric" HAVING sum("count") <> 0
  ), "days" AS (
    UPDATE "form_insight_days" t SET "count" = t."count" - d."n"
      FROM (SELECT * FROM "delta" ORDER BY "form_id", "day", "segment", "metric") d
      WHERE t."form_id" = d."form_id" AND t."day" = d."day" AND t."segment" = d."segment" AND t."metric" = d."metric"
      RETURNING t."count"
  ), "months" AS (
    UPDATE "form_insight_months" t SET "count" = t."count" - m."n"
      FROM (SELECT "form_id", date_trunc('month', "day", 'UTC') AS "month", "segment", "metric", sum("n") AS "n" FROM "delta"
        GROUP BY "form_id", 2, "segment", "metric" ORDER BY "form_id", 2, "segment", "metric") m
      WHERE t."form_id" = m."form_id" AND t."month" = m."month" AND t."segment" = m."segment" AND t."metric" = m."metric"
      RETURNING t."count"
  )
  SELECT coalesce((SELECT bool_or("count" = 0) FROM "days"), false) OR coalesce((SELECT bool_or("count" = 0) FROM "months"), false) INTO "emptied";
  IF "emptied" THEN
    DELETE FROM "form_insight_days" t USING "old_rows" r
      WHERE t."form_id" = r."form_id" AND t."day" = date_trunc('day', r."hour", 'UTC') AND t."segment" = r."segment" AND t."metric" = r."metric" AND t."count" = 0;
    DELETE FROM "form_insight_months" t USING "old_rows" r
      WHERE t."form_id" = r."form_id" AND t."month" = date_trunc('month', r."hour", 'UTC') AND t."segment" = r."segment" AND t."metric" = r."metric" AND t."count" = 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "form_insight_counts_rollups_insert" AFTER INSERT ON "form_insight_counts"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "form_insight_rollups_inserted"();
--> statement-breakpoint
CREATE TRIGGER "form_insight_counts_rollups_update" AFTER UPDATE ON "form_insight_counts"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "form_insight_rollups_updated"();
--> statement-breakpoint
CREATE TRIGGER "form_insight_counts_rollups_delete" AFTER DELETE ON "form_insight_counts"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "form_insight_rollups_deleted"();
--> statement-breakpoint
-- The months of the counters so far, summed from their day rows (a day's rows are already its hours' sums).
INSERT INTO "form_insight_months" ("form_id", "environment_id", "month", "segment", "device", "language", "referrer", "hidden", "metric", "count")
SELECT "form_id", min("environment_id"), date_trunc('month', "day", 'UTC'), "segment", min("device"), min("language"), min("referrer"),
  (array_agg("hidden"))[1], "metric", sum("count")::integer
FROM "form_insight_days"
GROUP BY "form_id", date_trunc('month', "day", 'UTC'), "segment", "metric"
HAVING sum("count") <> 0;
