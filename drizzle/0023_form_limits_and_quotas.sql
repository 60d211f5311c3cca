ALTER TABLE "forms" ADD COLUMN "limits" jsonb;--> statement-breakpoint
ALTER TABLE "forms" ADD COLUMN "quotas" jsonb DEFAULT '[]'::jsonb NOT NULL;