ALTER TABLE "environments" ADD COLUMN "embed_origins" jsonb;--> statement-breakpoint
ALTER TABLE "forms" ADD COLUMN "locale" text DEFAULT 'en' NOT NULL;