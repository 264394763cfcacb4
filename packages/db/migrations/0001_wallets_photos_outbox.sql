CREATE TABLE "apple_device_registrations" (
	"device_library_identifier" text NOT NULL,
	"serial_number" uuid NOT NULL,
	"push_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "apple_device_registrations_device_library_identifier_serial_number_pk" PRIMARY KEY("device_library_identifier","serial_number")
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "photo_reset_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" text NOT NULL,
	"barcode" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"handled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "photos" (
	"uid" text PRIMARY KEY NOT NULL,
	"barcode" text NOT NULL,
	"bmp" "bytea" NOT NULL,
	"png" "bytea" NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "photos_barcode_unique" UNIQUE("barcode")
);
--> statement-breakpoint
CREATE TABLE "server_keys" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_pass_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"serial_number" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_passes" (
	"barcode" text PRIMARY KEY NOT NULL,
	"serial_number" uuid DEFAULT gen_random_uuid() NOT NULL,
	"content_hash" text,
	"google_issued" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_passes_serialNumber_unique" UNIQUE("serial_number")
);
--> statement-breakpoint
ALTER TABLE "apple_device_registrations" ADD CONSTRAINT "apple_device_registrations_serial_number_wallet_passes_serial_number_fk" FOREIGN KEY ("serial_number") REFERENCES "public"."wallet_passes"("serial_number") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_reset_requests" ADD CONSTRAINT "photo_reset_requests_barcode_tickets_barcode_fk" FOREIGN KEY ("barcode") REFERENCES "public"."tickets"("barcode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photos" ADD CONSTRAINT "photos_barcode_tickets_barcode_fk" FOREIGN KEY ("barcode") REFERENCES "public"."tickets"("barcode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_pass_tokens" ADD CONSTRAINT "wallet_pass_tokens_serial_number_wallet_passes_serial_number_fk" FOREIGN KEY ("serial_number") REFERENCES "public"."wallet_passes"("serial_number") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD CONSTRAINT "wallet_passes_barcode_tickets_barcode_fk" FOREIGN KEY ("barcode") REFERENCES "public"."tickets"("barcode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "apple_device_registrations_serial_number_index" ON "apple_device_registrations" USING btree ("serial_number");--> statement-breakpoint
CREATE INDEX "photo_reset_requests_barcode_index" ON "photo_reset_requests" USING btree ("barcode");--> statement-breakpoint
CREATE INDEX "wallet_pass_tokens_serial_number_index" ON "wallet_pass_tokens" USING btree ("serial_number");