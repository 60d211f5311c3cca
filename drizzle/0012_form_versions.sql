CREATE TABLE "form_versions" (
	"form_id" text NOT NULL,
	"environment_id" text NOT NULL,
	"version" integer NOT NULL,
	"definition" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "form_versions_form_id_version_pk" PRIMARY KEY("form_id","version"),
	CONSTRAINT "form_versions_version_check" CHECK ("form_versions"."version" >= 1)
);
--> statement-breakpoint
ALTER TABLE "forms" ADD COLUMN "hidden_fields" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "forms" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "form_versions" ADD CONSTRAINT "form_versions_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_versions" ADD CONSTRAINT "form_versions_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Every existing form is at version 1: its definition as it stands is that version's snapshot.
INSERT INTO "form_versions" ("form_id", "environment_id", "version", "definition", "created_at")
SELECT "id", "environment_id", 1, jsonb_build_object('name', "name", 'steps', "steps", 'hiddenFields', "hidden_fields", 'locale', "locale"), "created_at" FROM "forms";
