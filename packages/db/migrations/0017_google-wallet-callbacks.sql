CREATE TABLE "google_wallet_callbacks" (
	"nonce" text PRIMARY KEY NOT NULL,
	"event_type" text NOT NULL,
	"class_id" text NOT NULL,
	"object_id" text NOT NULL,
	"serial_number" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD COLUMN "google_wallet_state" text;--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD COLUMN "google_wallet_state_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "google_wallet_callbacks" ADD CONSTRAINT "google_wallet_callbacks_serial_number_wallet_passes_serial_number_fk" FOREIGN KEY ("serial_number") REFERENCES "public"."wallet_passes"("serial_number") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "google_wallet_callbacks_serial_number_index" ON "google_wallet_callbacks" USING btree ("serial_number");