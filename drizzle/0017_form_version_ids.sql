CREATE TABLE "form_version_ids" (
	"form_id" text NOT NULL,
	"id" text NOT NULL,
	"kind" text NOT NULL,
	"type" text,
	CONSTRAINT "form_version_ids_form_id_id_pk" PRIMARY KEY("form_id","id"),
	CONSTRAINT "form_version_ids_kind_check" CHECK ("form_version_ids"."kind" in ('step', 'component'))
);
--> statement-breakpoint
ALTER TABLE "form_versions" ADD COLUMN "definition_bytes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "form_version_ids" ADD CONSTRAINT "form_version_ids_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- hand-written
-- The sizes of the snapshots already stored, and the ids they hold (a component's type from the latest version that has it).
UPDATE "form_versions" SET "definition_bytes" = octet_length("definition"::text);--> statement-breakpoint
INSERT INTO "form_version_ids" ("form_id", "id", "kind", "type")
SELECT DISTINCT ON ("form_id", "id") "form_id", "id", "kind", "type" FROM (
  SELECT v."form_id", s ->> 'id' AS "id", 'step' AS "kind", NULL::text AS "type", v."version"
  FROM "form_versions" v CROSS JOIN LATERAL jsonb_array_elements(v."definition" -> 'steps') s
  UNION ALL
  SELECT v."form_id", c ->> 'id', 'component', c ->> 'type', v."version"
  FROM "form_versions" v CROSS JOIN LATERAL jsonb_array_elements(v."definition" -> 'steps') s CROSS JOIN LATERAL jsonb_array_elements(s -> 'components') c
) "known"
WHERE "id" IS NOT NULL
ORDER BY "form_id", "id", "version" DESC;
