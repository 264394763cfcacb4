CREATE TABLE "integration_events" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"subject" text NOT NULL,
	"data" jsonb NOT NULL,
	"xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "integration_events_id_unique" UNIQUE("id")
);
--> statement-breakpoint
CREATE INDEX "integration_events_xid_seq_index" ON "integration_events" USING btree ("xid","seq");