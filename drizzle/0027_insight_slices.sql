CREATE TABLE "form_insight_slice_days" (
	"form_id" text NOT NULL,
	"environment_id" text NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"metric" text NOT NULL,
	"count" integer NOT NULL,
	"day" timestamp with time zone NOT NULL,
	CONSTRAINT "form_insight_slice_days_form_id_kind_value_metric_day_pk" PRIMARY KEY("form_id","kind","value","metric","day")
);
--> statement-breakpoint
CREATE TABLE "form_insight_slice_months" (
	"form_id" text NOT NULL,
	"environment_id" text NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"metric" text NOT NULL,
	"count" integer NOT NULL,
	"month" timestamp with time zone NOT NULL,
	CONSTRAINT "form_insight_slice_months_form_id_kind_value_metric_month_pk" PRIMARY KEY("form_id","kind","value","metric","month")
);
--> statement-breakpoint
ALTER TABLE "form_insight_slice_days" ADD CONSTRAINT "form_insight_slice_days_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_insight_slice_days" ADD CONSTRAINT "form_insight_slice_days_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_insight_slice_months" ADD CONSTRAINT "form_insight_slice_months_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_insight_slice_months" ADD CONSTRAINT "form_insight_slice_months_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "form_insight_slice_days_totals_idx" ON "form_insight_slice_days" USING btree ("form_id","kind","value","day") WHERE "form_insight_slice_days"."metric" not like 'ttc:%';--> statement-breakpoint
CREATE INDEX "form_insight_slice_days_breakdown_idx" ON "form_insight_slice_days" USING btree ("form_id","metric","day") WHERE "form_insight_slice_days"."metric" in ('views', 'starts', 'finishes');--> statement-breakpoint
CREATE INDEX "form_insight_slice_months_totals_idx" ON "form_insight_slice_months" USING btree ("form_id","kind","value","month") WHERE "form_insight_slice_months"."metric" not like 'ttc:%';--> statement-breakpoint
CREATE INDEX "form_insight_slice_months_breakdown_idx" ON "form_insight_slice_months" USING btree ("form_id","metric","month") WHERE "form_insight_slice_months"."metric" in ('views', 'starts', 'finishes');--> statement-breakpoint
CREATE INDEX "form_insight_months_form_metric_month_idx" ON "form_insight_months" USING btree ("form_id","metric","month") WHERE "form_insight_months"."metric" in ('views', 'starts', 'finishes');--> statement-breakpoint
-- hand-written
-- form_insight_slice_days and form_insight_slice_months hold, per UTC day and month, the counters of every
-- segment together (kind 'all') and of each dimension value (kind 'device', 'language', 'referrer',
-- 'hidden:<name>'), with the finishes' times to complete also counted by bucket (metric
-- 'ttcb:<bucket start>'), so a read without a filter or with one takes a few rows per period rather than
-- every segment's. Three more statement-level triggers keep them in the writer's statement, after the day
-- and month rows (one event's triggers fire in name order: rollups, then slices), each table in key
-- order; a row that reaches zero goes; deleting hour rows only subtracts, never inserts.
--
-- The bucket of a time to complete (seconds): exact under 16 s, then 8 buckets per doubling (16-17 s,
-- 18-19 s, ..., 512-575 s, ...), so a bucket spans at most an eighth of its start.
CREATE FUNCTION "form_insight_time_bucket"("seconds" bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN "seconds" < 16 THEN "seconds"
    ELSE "seconds" >> (61 - position('1' IN "seconds"::bit(64)::text)) << (61 - position('1' IN "seconds"::bit(64)::text)) END
$$;
--> statement-breakpoint
-- The slices a segment's row counts in: every segment together, its device, its language, its referrer and
-- each of its hidden values. SQL functions of one query: the planner inlines them into the triggers' statements.
CREATE FUNCTION "form_insight_slices_of"("device" text, "language" text, "referrer" text, "hidden" jsonb)
  RETURNS TABLE("kind" text, "value" text) LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT 'all', '' UNION ALL SELECT 'device', "device" UNION ALL SELECT 'language', "language" UNION ALL SELECT 'referrer', "referrer"
  UNION ALL SELECT 'hidden:' || h."key", h."value" FROM jsonb_each_text("hidden") AS h("key", "value")
$$;
--> statement-breakpoint
-- The metrics a counter row counts in within a slice: its own and, for an exact time to complete, its bucket's.
CREATE FUNCTION "form_insight_slice_metrics_of"("metric" text) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT "metric" UNION ALL SELECT 'ttcb:' || "form_insight_time_bucket"(substr("metric", 5)::bigint) WHERE "metric" LIKE 'ttc:%'
$$;
--> statement-breakpoint
CREATE FUNCTION "form_insight_slices_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "emptied" boolean;
BEGIN
  -- An upsert that only updated fires this with no rows.
  IF NOT EXISTS (SELECT FROM "new_rows") THEN
    RETURN NULL;
  END IF;
  WITH "delta" AS (SELECT "form_id", "environment_id", date_trunc('day', "hour", 'UTC') AS "day", "device", "language", "referrer", "hidden", "metric", "count" AS "n" FROM "new_rows"), "sliced" AS (
    SELECT d."form_id", min(d."environment_id") AS "environment_id", d."day", s."kind", s."value", m."metric", sum(d."n") AS "n"
    FROM "delta" AS d
    CROSS JOIN LATERAL "form_insight_slices_of"(d."device", d."language", d."referrer", d."hidden") AS s("kind", "value")
    CROSS JOIN LATERAL "form_insight_slice_metrics_of"(d."metric") AS m("metric")
    GROUP BY d."form_id", d."day", s."kind", s."value", m."metric"
  ), "days" AS (
    INSERT INTO "form_insight_slice_days" AS t ("form_id", "environment_id", "kind", "value", "metric", "count", "day")
      SELECT "form_id", "environment_id", "kind", "value", "metric", "n", "day" FROM "sliced"
      WHERE "n" <> 0 ORDER BY "form_id", "kind", "value", "metric", "day"
      ON CONFLICT ("form_id", "kind", "value", "metric", "day") DO UPDATE SET "count" = t."count" + excluded."count"
      RETURNING t."count"
  ), "months" AS (
    INSERT INTO "form_insight_slice_months" AS t ("form_id", "environment_id", "kind", "value", "metric", "count", "month")
      SELECT "form_id", min("environment_id"), "kind", "value", "metric", sum("n"), date_trunc('month', "day", 'UTC') FROM "sliced"
      GROUP BY "form_id", "kind", "value", "metric", 7 HAVING sum("n") <> 0 ORDER BY "form_id", "kind", "value", "metric", 7
      ON CONFLICT ("form_id", "kind", "value", "metric", "month") DO UPDATE SET "count" = t."count" + excluded."count"
      RETURNING t."count"
  )
  SELECT coalesce((SELECT bool_or("count" = 0) FROM "days"), false) OR coalesce((SELECT bool_or("count" = 0) FROM "months"), false) INTO "emptied";
  IF "emptied" THEN
    WITH "delta" AS (SELECT "form_id", "environment_id", date_trunc('day', "hour", 'UTC') AS "day", "device", "language", "referrer", "hidden", "metric", "count" AS "n" FROM "new_rows"), "sliced" AS (
    SELECT d."form_id", min(d."environment_id") AS "environment_id", d."day", s."kind", s."value", m."metric", sum(d."n") AS "n"
    FROM "delta" AS d
    CROSS JOIN LATERAL "form_insight_slices_of"(d."device", d."language", d."referrer", d."hidden") AS s("kind", "value")
    CROSS JOIN LATERAL "form_insight_slice_metrics_of"(d."metric") AS m("metric")
    GROUP BY d."form_id", d."day", s."kind", s."value", m."metric"
  ), "gone" AS (
      DELETE FROM "form_insight_slice_days" t USING "sliced" s
        WHERE t."form_id" = s."form_id" AND t."kind" = s."kind" AND t."value" = s."value" AND t."metric" = s."metric" AND t."day" = s."day" AND t."count" = 0
    )
    DELETE FROM "form_insight_slice_months" t USING (SELECT DISTINCT "form_id", "kind", "value", "metric", date_trunc('month', "day", 'UTC') AS "month" FROM "sliced") s
      WHERE t."form_id" = s."form_id" AND t."kind" = s."kind" AND t."value" = s."value" AND t."metric" = s."metric" AND t."month" = s."month" AND t."count" = 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "form_insight_slices_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "emptied" boolean;
BEGIN
  -- An upsert that only inserted fires this with no rows.
  IF NOT EXISTS (SELECT FROM "new_rows") THEN
    RETURN NULL;
  END IF;
  WITH "delta" AS (SELECT "form_id", "environment_id", date_trunc('day', "hour", 'UTC') AS "day", "device", "language", "referrer", "hidden", "metric", "count" AS "n" FROM "new_rows" UNION ALL SELECT "form_id", "environment_id", date_trunc('day', "hour", 'UTC') AS "day", "device", "language", "referrer", "hidden", "metric", -"count" FROM "old_rows"), "sliced" AS (
    SELECT d."form_id", min(d."environment_id") AS "environment_id", d."day", s."kind", s."value", m."metric", sum(d."n") AS "n"
    FROM "delta" AS d
    CROSS JOIN LATERAL "form_insight_slices_of"(d."device", d."language", d."referrer", d."hidden") AS s("kind", "value")
    CROSS JOIN LATERAL "form_insight_slice_metrics_of"(d."metric") AS m("metric")
    GROUP BY d."form_id", d."day", s."kind", s."value", m."metric"
  ), "days" AS (
    INSERT INTO "form_insight_slice_days" AS t ("form_id", "environment_id", "kind", "value", "metric", "count", "day")
      SELECT "form_id", "environment_id", "kind", "value", "metric", "n", "day" FROM "sliced"
      WHERE "n" <> 0 ORDER BY "form_id", "kind", "value", "metric", "day"
      ON CONFLICT ("form_id", "kind", "value", "metric", "day") DO UPDATE SET "count" = t."count" + excluded."count"
      RETURNING t."count"
  ), "months" AS (
    INSERT INTO "form_insight_slice_months" AS t ("form_id", "environment_id", "kind", "value", "metric", "count", "month")
      SELECT "form_id", min("environment_id"), "kind", "value", "metric", sum("n"), date_trunc('month', "day", 'UTC') FROM "sliced"
      GROUP BY "form_id", "kind", "value", "metric", 7 HAVING sum("n") <> 0 ORDER BY "form_id", "kind", "value", "metric", 7
      ON CONFLICT ("form_id", "kind", "value", "metric", "month") DO UPDATE SET "count" = t."count" + excluded."count"
      RETURNING t."count"
  )
  SELECT coalesce((SELECT bool_or("count" = 0) FROM "days"), false) OR coalesce((SELECT bool_or("count" = 0) FROM "months"), false) INTO "emptied";
  IF "emptied" THEN
    WITH "delta" AS (SELECT "form_id", "environment_id", date_trunc('day', "hour", 'UTC') AS "day", "device", "language", "referrer", "hidden", "metric", "count" AS "n" FROM "new_rows" UNION ALL SELECT "form_id", "environment_id", date_trunc('day', "hour", 'UTC') AS "day", "device", "language", "referrer", "hidden", "metric", -"count" FROM "old_rows"), "sliced" AS (
    SELECT d."form_id", min(d."environment_id") AS "environment_id", d."day", s."kind", s."value", m."metric", sum(d."n") AS "n"
    FROM "delta" AS d
    CROSS JOIN LATERAL "form_insight_slices_of"(d."device", d."language", d."referrer", d."hidden") AS s("kind", "value")
    CROSS JOIN LATERAL "form_insight_slice_metrics_of"(d."metric") AS m("metric")
    GROUP BY d."form_id", d."day", s."kind", s."value", m."metric"
  ), "gone" AS (
      DELETE FROM "form_insight_slice_days" t USING "sliced" s
        WHERE t."form_id" = s."form_id" AND t."kind" = s."kind" AND t."value" = s."value" AND t."metric" = s."metric" AND t."day" = s."day" AND t."count" = 0
    )
    DELETE FROM "form_insight_slice_months" t USING (SELECT DISTINCT "form_id", "kind", "value", "metric", date_trunc('month', "day", 'UTC') AS "month" FROM "sliced") s
      WHERE t."form_id" = s."form_id" AND t."kind" = s."kind" AND t."value" = s."value" AND t."metric" = s."metric" AND t."month" = s."month" AND t."count" = 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "form_insight_slices_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "emptied" boolean;
BEGIN
  WITH "delta" AS (SELECT "form_id", "environment_id", date_trunc('day', "hour", 'UTC') AS "day", "device", "language", "referrer", "hidden", "metric", -"count" AS "n" FROM "old_rows"), "sliced" AS (
    SELECT d."form_id", min(d."environment_id") AS "environment_id", d."day", s."kind", s."value", m."metric", sum(d."n") AS "n"
    FROM "delta" AS d
    CROSS JOIN LATERAL "form_insight_slices_of"(d."device", d."language", d."referrer", d."hidden") AS s("kind", "value")
    CROSS JOIN LATERAL "form_insight_slice_metrics_of"(d."metric") AS m("metric")
    GROUP BY d."form_id", d."day", s."kind", s."value", m."metric"
  ), "days" AS (
    UPDATE "form_insight_slice_days" t SET "count" = t."count" + s."n"
      FROM (SELECT * FROM "sliced" WHERE "n" <> 0 ORDER BY "form_id", "kind", "value", "metric", "day") s
      WHERE t."form_id" = s."form_id" AND t."kind" = s."kind" AND t."value" = s."value" AND t."metric" = s."metric" AND t."day" = s."day"
      RETURNING t."count"
  ), "months" AS (
    UPDATE "form_insight_slice_months" t SET "count" = t."count" + s."n"
      FROM (SELECT "form_id", "kind", "value", "metric", date_trunc('month', "day", 'UTC') AS "month", sum("n") AS "n" FROM "sliced"
        GROUP BY "form_id", "kind", "value", "metric", 5 HAVING sum("n") <> 0 ORDER BY "form_id", "kind", "value", "metric", 5) s
      WHERE t."form_id" = s."form_id" AND t."kind" = s."kind" AND t."value" = s."value" AND t."metric" = s."metric" AND t."month" = s."month"
      RETURNING t."count"
  )
  SELECT coalesce((SELECT bool_or("count" = 0) FROM "days"), false) OR coalesce((SELECT bool_or("count" = 0) FROM "months"), false) INTO "emptied";
  IF "emptied" THEN
    WITH "delta" AS (SELECT "form_id", "environment_id", date_trunc('day', "hour", 'UTC') AS "day", "device", "language", "referrer", "hidden", "metric", -"count" AS "n" FROM "old_rows"), "sliced" AS (
    SELECT d."form_id", min(d."environment_id") AS "environment_id", d."day", s."kind", s."value", m."metric", sum(d."n") AS "n"
    FROM "delta" AS d
    CROSS JOIN LATERAL "form_insight_slices_of"(d."device", d."language", d."referrer", d."hidden") AS s("kind", "value")
    CROSS JOIN LATERAL "form_insight_slice_metrics_of"(d."metric") AS m("metric")
    GROUP BY d."form_id", d."day", s."kind", s."value", m."metric"
  ), "gone" AS (
      DELETE FROM "form_insight_slice_days" t USING "sliced" s
        WHERE t."form_id" = s."form_id" AND t."kind" = s."kind" AND t."value" = s."value" AND t."metric" = s."metric" AND t."day" = s."day" AND t."count" = 0
    )
    DELETE FROM "form_insight_slice_months" t USING (SELECT DISTINCT "form_id", "kind", "value", "metric", date_trunc('month', "day", 'UTC') AS "month" FROM "sliced") s
      WHERE t."form_id" = s."form_id" AND t."kind" = s."kind" AND t."value" = s."value" AND t."metric" = s."metric" AND t."month" = s."month" AND t."count" = 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "form_insight_counts_slices_insert" AFTER INSERT ON "form_insight_counts"
  REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "form_insight_slices_inserted"();
--> statement-breakpoint
CREATE TRIGGER "form_insight_counts_slices_update" AFTER UPDATE ON "form_insight_counts"
  REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "form_insight_slices_updated"();
--> statement-breakpoint
CREATE TRIGGER "form_insight_counts_slices_delete" AFTER DELETE ON "form_insight_counts"
  REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "form_insight_slices_deleted"();
--> statement-breakpoint
-- The slices of the counters so far, from their day rows (each already its hours' sum), then their months;
-- inserted in key order, so a slice's rows of consecutive periods share pages.
WITH "sliced" AS (
    SELECT d."form_id", min(d."environment_id") AS "environment_id", d."day", s."kind", s."value", m."metric", sum(d."n") AS "n"
    FROM (SELECT "form_id", "environment_id", "day", "device", "language", "referrer", "hidden", "metric", "count" AS "n" FROM "form_insight_days") AS d
    CROSS JOIN LATERAL "form_insight_slices_of"(d."device", d."language", d."referrer", d."hidden") AS s("kind", "value")
    CROSS JOIN LATERAL "form_insight_slice_metrics_of"(d."metric") AS m("metric")
    GROUP BY d."form_id", d."day", s."kind", s."value", m."metric"
  )
INSERT INTO "form_insight_slice_days" ("form_id", "environment_id", "kind", "value", "metric", "count", "day")
SELECT "form_id", "environment_id", "kind", "value", "metric", "n"::integer, "day" FROM "sliced" WHERE "n" <> 0
ORDER BY "form_id", "kind", "value", "metric", "day";
--> statement-breakpoint
INSERT INTO "form_insight_slice_months" ("form_id", "environment_id", "kind", "value", "metric", "count", "month")
SELECT "form_id", min("environment_id"), "kind", "value", "metric", sum("count")::integer, date_trunc('month', "day", 'UTC')
FROM "form_insight_slice_days"
GROUP BY "form_id", "kind", "value", "metric", date_trunc('month', "day", 'UTC')
HAVING sum("count") <> 0
ORDER BY "form_id", "kind", "value", "metric", 7;
