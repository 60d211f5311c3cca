CREATE TABLE "form_insight_counts" (
	"form_id" text NOT NULL,
	"environment_id" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"segment" text NOT NULL,
	"device" text NOT NULL,
	"language" text NOT NULL,
	"referrer" text NOT NULL,
	"hidden" jsonb NOT NULL,
	"metric" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "form_insight_counts_form_id_hour_segment_metric_pk" PRIMARY KEY("form_id","hour","segment","metric")
);
--> statement-breakpoint
ALTER TABLE "responses" ADD COLUMN "insight" jsonb;--> statement-breakpoint
ALTER TABLE "form_insight_counts" ADD CONSTRAINT "form_insight_counts_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_insight_counts" ADD CONSTRAINT "form_insight_counts_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "form_insight_counts_environment_hour_idx" ON "form_insight_counts" USING btree ("environment_id","hour");--> statement-breakpoint
-- hand-written
-- Responses stored before counting began count what SQL can tell of them: started, finished, invalid, the
-- steps of their recorded path, their time to complete, by a rough reading of the User-Agent and their hidden
-- values, with no referrer; the step an unfinished one was left at counts from its next submission on.
UPDATE "responses" SET "insight" = counted.insight
FROM (
  SELECT r.id, jsonb_build_object(
    'hour', to_char(date_trunc('hour', r.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD"T"HH24:MI:SS".000Z"'),
    'segment', 'pre-' || md5(s.device || E'\n' || f.locale || E'\n' || s.hidden::text),
    'device', s.device, 'language', f.locale, 'referrer', '', 'hidden', s.hidden,
    'metrics', (
      SELECT coalesce(jsonb_agg(DISTINCT m ORDER BY m), '[]'::jsonb) FROM (
        SELECT 'starts' AS m
        UNION ALL SELECT 'finishes' WHERE r.finished
        UNION ALL SELECT 'invalid' WHERE r.meta ? 'invalid'
        UNION ALL SELECT 'reached:' || k FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(r.meta -> 'path') = 'array' THEN r.meta -> 'path' ELSE '[]'::jsonb END) AS p(k)
        UNION ALL SELECT 'ttc:' || CASE WHEN t.s < 1000 THEN t.s ELSE t.s / (10 ^ (length(t.s::text) - 3))::bigint * (10 ^ (length(t.s::text) - 3))::bigint END
          FROM (SELECT greatest(0, floor(extract(epoch FROM r.updated_at - r.created_at)))::bigint AS s) t WHERE r.finished
      ) AS metrics
    )) AS insight
  FROM "responses" r
  JOIN "forms" f ON f.id = r.form_id,
  LATERAL (SELECT
      CASE WHEN r.meta ->> 'userAgent' ~* '(ipad|tablet)' THEN 'tablet' WHEN r.meta ->> 'userAgent' ~* '(mobi|iphone|android)' THEN 'mobile' ELSE 'desktop' END AS device,
      CASE WHEN jsonb_typeof(r.meta -> 'hiddenFields') = 'object' THEN r.meta -> 'hiddenFields' ELSE '{}'::jsonb END AS hidden) s
) AS counted
WHERE counted.id = "responses".id;
--> statement-breakpoint
INSERT INTO "form_insight_counts" (form_id, environment_id, hour, segment, device, language, referrer, hidden, metric, count)
SELECT r.form_id, r.environment_id, (r.insight ->> 'hour')::timestamptz, r.insight ->> 'segment', r.insight ->> 'device', r.insight ->> 'language', '',
  r.insight -> 'hidden', m.metric, count(*)::integer
FROM "responses" r, jsonb_array_elements_text(r.insight -> 'metrics') AS m(metric)
WHERE r.insight IS NOT NULL
GROUP BY 1, 2, 3, 4, 5, 6, 8, 9;
