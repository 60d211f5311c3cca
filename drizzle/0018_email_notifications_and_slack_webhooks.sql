CREATE TABLE "notification_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"environment_id" text NOT NULL,
	"form_id" text NOT NULL,
	"response_id" text NOT NULL,
	"kind" text NOT NULL,
	"trigger" text NOT NULL,
	"recipient" text NOT NULL,
	"rule" jsonb NOT NULL,
	"dedupe_key" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_token" text,
	"lease_until" timestamp with time zone,
	"last_reply" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_deliveries_status_check" CHECK ("notification_deliveries"."status" in ('pending', 'sending', 'sent', 'failed', 'suppressed')),
	CONSTRAINT "notification_deliveries_kind_check" CHECK ("notification_deliveries"."kind" in ('team', 'respondent'))
);
--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "smtp_url" text;--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "smtp_password_sealed" text;--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "mail_from" text;--> statement-breakpoint
ALTER TABLE "forms" ADD COLUMN "notifications" jsonb;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "format" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "include_answers" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notification_deliveries_dedupe_idx" ON "notification_deliveries" USING btree ("response_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "notification_deliveries_due_idx" ON "notification_deliveries" USING btree ("next_attempt_at") WHERE "notification_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "notification_deliveries_lease_idx" ON "notification_deliveries" USING btree ("lease_until") WHERE "notification_deliveries"."status" = 'sending';--> statement-breakpoint
CREATE INDEX "notification_deliveries_form_idx" ON "notification_deliveries" USING btree ("form_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "notification_deliveries_kind_idx" ON "notification_deliveries" USING btree ("form_id","kind","created_at");--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_format_check" CHECK ("webhook_endpoints"."format" in ('standard', 'slack'));