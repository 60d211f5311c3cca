CREATE TABLE "form_insight_days" (
	"form_id" text NOT NULL,
	"environment_id" text NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"segment" text NOT NULL,
	"device" text NOT NULL,
	"language" text NOT NULL,
	"referrer" text NOT NULL,
	"hidden" jsonb NOT NULL,
	"metric" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "form_insight_days_form_id_day_segment_metric_pk" PRIMARY KEY("form_id","day","segment","metric")
);
--> statement-breakpoint
ALTER TABLE "form_insight_days" ADD CONSTRAINT "form_insight_days_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_insight_days" ADD CONSTRAINT "form_insight_days_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "form_insight_days_environment_day_idx" ON "form_insight_days" USING btree ("environment_id","day");--> statement-breakpoint
CREATE INDEX "form_insight_days_form_metric_day_idx" ON "form_insight_days" USING btree ("form_id","metric","day");--> statement-breakpoint
-- hand-written
-- form_insight_days is the per-UTC-day sum of form_insight_counts, kept by a row trigger in the writer's
-- transaction: every insert, upsert, update and delete of an hour row moves its count to its day's row
-- (a day row that reaches zero goes, with its hidden values). Subtracting never inserts, so a cascade
-- from a deleted form finds no row to recreate.
CREATE FUNCTION "form_insight_days_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE "form_insight_days" SET "count" = "count" - OLD."count"
      WHERE "form_id" = OLD."form_id" AND "day" = date_trunc('day', OLD."hour", 'UTC')
        AND "segment" = OLD."segment" AND "metric" = OLD."metric";
    DELETE FROM "form_insight_days"
      WHERE "form_id" = OLD."form_id" AND "day" = date_trunc('day', OLD."hour", 'UTC')
        AND "segment" = OLD."segment" AND "metric" = OLD."metric" AND "count" = 0;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO "form_insight_days" ("form_id", "environment_id", "day", "segment", "device", "language", "referrer", "hidden", "metric", "count")
      VALUES (NEW."form_id", NEW."environment_id", date_trunc('day', NEW."hour", 'UTC'), NEW."segment", NEW."device", NEW."language",
        NEW."referrer", NEW."hidden", NEW."metric", NEW."count")
      ON CONFLICT ("form_id", "day", "segment", "metric") DO UPDATE SET "count" = "form_insight_days"."count" + excluded."count";
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "form_insight_counts_days" AFTER INSERT OR UPDATE OR DELETE ON "form_insight_counts"
  FOR EACH ROW EXECUTE FUNCTION "form_insight_days_follow"();
--> statement-breakpoint
INSERT INTO "form_insight_days" ("form_id", "environment_id", "day", "segment", "device", "language", "referrer", "hidden", "metric", "count")
SELECT "form_id", min("environment_id"), date_trunc('day', "hour", 'UTC'), "segment", min("device"), min("language"), min("referrer"),
  (array_agg("hidden"))[1], "metric", sum("count")::integer
FROM "form_insight_counts"
GROUP BY "form_id", date_trunc('day', "hour", 'UTC'), "segment", "metric"
HAVING sum("count") <> 0;
