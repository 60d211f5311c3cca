CREATE TABLE "graphql_trusted_documents" (
	"hash" text PRIMARY KEY NOT NULL,
	"document" text NOT NULL,
	"operation_names" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
