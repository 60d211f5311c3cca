CREATE TABLE "audit_log" (
	"id" text PRIMARY KEY NOT NULL,
	"environment_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_key_id" text,
	"action" text NOT NULL,
	"target_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erasures" (
	"id" text PRIMARY KEY NOT NULL,
	"environment_id" text NOT NULL,
	"lead_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_key_id" text,
	"responses_deleted" integer NOT NULL,
	"webhook_events_deleted" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"name" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"status" text NOT NULL,
	"responses_deleted" integer DEFAULT 0 NOT NULL,
	"forms_purged" integer DEFAULT 0 NOT NULL,
	"error" text,
	"node" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "ip_storage" text DEFAULT 'full' NOT NULL;--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "retention_days" integer;--> statement-breakpoint
ALTER TABLE "forms" ADD COLUMN "retention_days" integer;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erasures" ADD CONSTRAINT "erasures_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_environment_created_idx" ON "audit_log" USING btree ("environment_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "erasures_environment_lead_uq" ON "erasures" USING btree ("environment_id","lead_id");--> statement-breakpoint
CREATE INDEX "forms_deleted_at_idx" ON "forms" USING btree ("deleted_at") WHERE "forms"."deleted_at" is not null;--> statement-breakpoint
CREATE INDEX "outbox_events_response_idx" ON "outbox_events" USING btree ("response_id") WHERE "outbox_events"."response_id" is not null;--> statement-breakpoint
ALTER TABLE "environments" ADD CONSTRAINT "environments_ip_storage_check" CHECK ("environments"."ip_storage" in ('full', 'truncated', 'none'));--> statement-breakpoint
ALTER TABLE "environments" ADD CONSTRAINT "environments_retention_days_check" CHECK ("environments"."retention_days" is null or "environments"."retention_days" >= 1);--> statement-breakpoint
ALTER TABLE "forms" ADD CONSTRAINT "forms_retention_days_check" CHECK ("forms"."retention_days" is null or "forms"."retention_days" >= 1);