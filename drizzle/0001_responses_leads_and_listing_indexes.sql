CREATE TABLE "lead_form_stats" (
	"lead_id" text NOT NULL,
	"form_id" text NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	"completions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "lead_form_stats_lead_id_form_id_pk" PRIMARY KEY("lead_id","form_id")
);
--> statement-breakpoint
CREATE TABLE "leads" (
	"id" text PRIMARY KEY NOT NULL,
	"environment_id" text NOT NULL,
	"email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "responses" (
	"id" text PRIMARY KEY NOT NULL,
	"environment_id" text NOT NULL,
	"form_id" text NOT NULL,
	"lead_id" text NOT NULL,
	"session_id" text,
	"finished" boolean DEFAULT false NOT NULL,
	"data" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"meta" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"visited_form" integer DEFAULT 1 NOT NULL,
	"completed_form" integer DEFAULT 0 NOT NULL,
	"version" text DEFAULT '2.0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"data_updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lead_form_stats" ADD CONSTRAINT "lead_form_stats_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_form_stats" ADD CONSTRAINT "lead_form_stats_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "responses" ADD CONSTRAINT "responses_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "responses" ADD CONSTRAINT "responses_form_id_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "responses" ADD CONSTRAINT "responses_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "leads_environment_email_uq" ON "leads" USING btree ("environment_id","email");--> statement-breakpoint
CREATE INDEX "responses_form_created_idx" ON "responses" USING btree ("form_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "responses_form_finished_created_idx" ON "responses" USING btree ("form_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "responses"."finished";--> statement-breakpoint
CREATE INDEX "responses_environment_created_idx" ON "responses" USING btree ("environment_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "responses_environment_finished_created_idx" ON "responses" USING btree ("environment_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "responses"."finished";--> statement-breakpoint
CREATE UNIQUE INDEX "responses_form_session_uq" ON "responses" USING btree ("form_id","session_id");--> statement-breakpoint
CREATE INDEX "responses_lead_idx" ON "responses" USING btree ("lead_id");