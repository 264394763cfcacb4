CREATE TABLE "rate_slots" (
	"key" text PRIMARY KEY NOT NULL,
	"next_at" double precision NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_waves" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cursor" text,
	"devices" integer DEFAULT 0 NOT NULL,
	"pushed" integer DEFAULT 0 NOT NULL,
	"unregistered" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "wallet_waves_created_at_index" ON "wallet_waves" USING btree ("created_at");