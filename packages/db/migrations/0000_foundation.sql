CREATE TABLE "attraction_usage" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"barcode" text NOT NULL,
	"attraction" text NOT NULL,
	"location" text NOT NULL,
	"timestamp" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "checks" (
	"check_id" text PRIMARY KEY NOT NULL,
	"check_number" text NOT NULL,
	"order_date" timestamp with time zone NOT NULL,
	"terminal_id" text NOT NULL,
	"total" numeric(12, 2) NOT NULL,
	"refunded" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"order_id" text PRIMARY KEY NOT NULL,
	"order_date" timestamp with time zone NOT NULL,
	"purchaser_first_name" text,
	"purchaser_last_name" text,
	"purchaser_email" text,
	"purchaser_phone" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pass_customization_categories" (
	"guid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"category_id" text,
	"pack_id" text,
	"barcode" text,
	"customization_name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pass_customizations" (
	"pass_customization_guid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"background_color" text NOT NULL,
	"color" text NOT NULL,
	"instructions" text NOT NULL,
	"google_instructions" text,
	"google_uri" text,
	"hide_barcode" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pass_customizations_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "registrations" (
	"barcode" text PRIMARY KEY NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"opt_in_email_marketing" boolean DEFAULT false NOT NULL,
	"opt_in_sms_marketing" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reservations" (
	"reservation_number" text PRIMARY KEY NOT NULL,
	"first_name" text,
	"last_name" text,
	"email" text,
	"arrival" date NOT NULL,
	"departure" date NOT NULL,
	"total" numeric(12, 2) NOT NULL,
	"cancelled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_passes" (
	"guid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"barcode" text NOT NULL,
	"description" text,
	"data" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_passes_barcode_unique" UNIQUE("barcode")
);
--> statement-breakpoint
CREATE TABLE "ticket_shares" (
	"share_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"barcode" text NOT NULL,
	"hash_url_hash" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"salesforce_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone,
	CONSTRAINT "ticket_shares_hashUrlHash_unique" UNIQUE("hash_url_hash")
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"barcode" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"position" integer NOT NULL,
	"product" text NOT NULL,
	"price" numeric(12, 2),
	"category" text,
	"category_id" text,
	"pack_id" text,
	"merch_item_id" text,
	"is_passholder" boolean DEFAULT false NOT NULL,
	"holder_first_name" text,
	"holder_last_name" text,
	"holder_email" text,
	"holder_phone" text,
	"credits" numeric(12, 2) DEFAULT 0 NOT NULL,
	"cash" numeric(12, 2) DEFAULT 0 NOT NULL,
	"expires" timestamp with time zone,
	"redeemed" timestamp with time zone,
	"refunded" boolean DEFAULT false NOT NULL,
	"is_pass_activated" boolean DEFAULT false NOT NULL,
	"icloud_binding_link" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_exceptions" (
	"guid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_number" text NOT NULL,
	"skip_registration" boolean DEFAULT false NOT NULL,
	"skip_image" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_item_exclusions" (
	"guid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merch_item_id" text,
	"merch_pack_id" text,
	"custom_error" text,
	"valid_from" timestamp with time zone,
	"valid_to" timestamp with time zone,
	"exclude_nfc" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wristband_merch_pack_ids" (
	"guid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merch_item_id" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"valid_from" timestamp with time zone,
	"valid_to" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pass_customization_categories" ADD CONSTRAINT "pass_customization_categories_customization_name_pass_customizations_name_fk" FOREIGN KEY ("customization_name") REFERENCES "public"."pass_customizations"("name") ON DELETE restrict ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "registrations" ADD CONSTRAINT "registrations_barcode_tickets_barcode_fk" FOREIGN KEY ("barcode") REFERENCES "public"."tickets"("barcode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_shares" ADD CONSTRAINT "ticket_shares_barcode_tickets_barcode_fk" FOREIGN KEY ("barcode") REFERENCES "public"."tickets"("barcode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_order_id_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("order_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "attraction_usage_barcode_attraction_timestamp_index" ON "attraction_usage" USING btree ("barcode","attraction","timestamp");--> statement-breakpoint
CREATE INDEX "checks_check_number_index" ON "checks" USING btree ("check_number");--> statement-breakpoint
CREATE INDEX "pass_customization_categories_barcode_index" ON "pass_customization_categories" USING btree ("barcode") WHERE "pass_customization_categories"."active";--> statement-breakpoint
CREATE INDEX "pass_customization_categories_pack_id_index" ON "pass_customization_categories" USING btree ("pack_id") WHERE "pass_customization_categories"."active";--> statement-breakpoint
CREATE INDEX "pass_customization_categories_category_id_index" ON "pass_customization_categories" USING btree ("category_id") WHERE "pass_customization_categories"."active";--> statement-breakpoint
CREATE INDEX "ticket_shares_barcode_index" ON "ticket_shares" USING btree ("barcode");--> statement-breakpoint
CREATE INDEX "tickets_order_id_index" ON "tickets" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "wallet_exceptions_order_number_index" ON "wallet_exceptions" USING btree ("order_number");