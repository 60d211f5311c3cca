ALTER TABLE "environments" ADD COLUMN "turnstile_site_key" text;--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "turnstile_secret_key_sealed" text;--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "recaptcha_site_key" text;--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "recaptcha_secret_key_sealed" text;