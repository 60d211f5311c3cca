ALTER TABLE "forms" DROP CONSTRAINT "forms_status_check";--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "last_used_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "forms_environment_created_idx" ON "forms" USING btree ("environment_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "forms_source_created_idx" ON "forms" USING btree ("source_form_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "leads_environment_created_idx" ON "leads" USING btree ("environment_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
ALTER TABLE "forms" ADD CONSTRAINT "forms_status_check" CHECK ("forms"."status" in ('draft', 'published', 'closed'));