CREATE TABLE "stored_value_links" (
	"barcode_hash" text PRIMARY KEY NOT NULL,
	"barcode" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stored_value_links_barcode_unique" UNIQUE("barcode")
);
--> statement-breakpoint
CREATE TABLE "wristband_bindings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"wristband_barcode" text NOT NULL,
	"barcode" text NOT NULL,
	"order_id" text NOT NULL,
	"activated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deactivated_at" timestamp with time zone,
	"deactivated_by" text,
	CONSTRAINT "wristband_bindings_wristbandBarcode_unique" UNIQUE("wristband_barcode")
);
--> statement-breakpoint
ALTER TABLE "stored_value_links" ADD CONSTRAINT "stored_value_links_barcode_tickets_barcode_fk" FOREIGN KEY ("barcode") REFERENCES "public"."tickets"("barcode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wristband_bindings" ADD CONSTRAINT "wristband_bindings_barcode_tickets_barcode_fk" FOREIGN KEY ("barcode") REFERENCES "public"."tickets"("barcode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "wristband_bindings_active_ticket_index" ON "wristband_bindings" USING btree ("barcode") WHERE "wristband_bindings"."deactivated_at" is null;