CREATE TABLE "form_share_links" (
	"id" text PRIMARY KEY NOT NULL,
	"form_id" text NOT NULL,
	"environment_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"include_text_answers" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "form_share_links" ADD CONSTRAINT "form_share_links_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_share_links" ADD CONSTRAINT "form_share_links_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "form_share_links_token_uq" ON "form_share_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "form_share_links_form_idx" ON "form_share_links" USING btree ("form_id","created_at");