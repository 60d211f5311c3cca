CREATE TABLE "uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"environment_id" text NOT NULL,
	"form_id" text NOT NULL,
	"component_id" text NOT NULL,
	"response_id" text,
	"storage_key" text NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_response_id_responses_id_fk" FOREIGN KEY ("response_id") REFERENCES "public"."responses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "uploads_response_idx" ON "uploads" USING btree ("response_id");--> statement-breakpoint
CREATE INDEX "uploads_form_idx" ON "uploads" USING btree ("form_id");--> statement-breakpoint
CREATE INDEX "uploads_unattached_created_idx" ON "uploads" USING btree ("created_at") WHERE "uploads"."response_id" is null;