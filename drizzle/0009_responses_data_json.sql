-- Answers as json text (see responses in src/db/schema.ts). Rewrites the table under an exclusive lock: jsonb_out's text of each row.
ALTER TABLE "responses" ALTER COLUMN "data" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "responses" ALTER COLUMN "data" SET DEFAULT '[]'::json;