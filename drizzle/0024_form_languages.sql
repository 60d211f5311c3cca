ALTER TABLE "forms" ADD COLUMN "languages" jsonb;--> statement-breakpoint
ALTER TABLE "forms" ADD COLUMN "texts" jsonb;