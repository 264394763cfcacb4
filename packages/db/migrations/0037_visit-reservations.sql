CREATE TABLE "visit_blockouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"day" date NOT NULL,
	"category_id" text,
	"product" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visit_products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"category_id" text,
	"product" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "visit_products_category_or_product" CHECK ("visit_products"."category_id" is not null or "visit_products"."product" is not null)
);
--> statement-breakpoint
CREATE TABLE "visit_reservations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"window_id" uuid NOT NULL,
	"barcode" text NOT NULL,
	"order_id" text NOT NULL,
	"day" date NOT NULL,
	"status" text NOT NULL,
	"tier_rank" integer DEFAULT 0 NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"promoted_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"used_at" timestamp with time zone,
	"no_show_at" timestamp with time zone,
	CONSTRAINT "visit_reservations_status" CHECK (status in ('booked', 'waitlisted', 'cancelled', 'used', 'no_show'))
);
--> statement-breakpoint
CREATE TABLE "visit_windows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"capacity" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "visit_windows_startsAt_unique" UNIQUE("starts_at"),
	CONSTRAINT "visit_windows_ends_after_start" CHECK ("visit_windows"."ends_at" > "visit_windows"."starts_at"),
	CONSTRAINT "visit_windows_capacity" CHECK ("visit_windows"."capacity" >= 0)
);
--> statement-breakpoint
ALTER TABLE "loyalty_tiers" ADD COLUMN "visit_days_ahead" integer;--> statement-breakpoint
ALTER TABLE "visit_reservations" ADD CONSTRAINT "visit_reservations_window_id_visit_windows_id_fk" FOREIGN KEY ("window_id") REFERENCES "public"."visit_windows"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "visit_reservations_one_a_day_index" ON "visit_reservations" USING btree ("barcode","day") WHERE "visit_reservations"."status" in ('booked', 'used');--> statement-breakpoint
CREATE UNIQUE INDEX "visit_reservations_one_waitlist_a_day_index" ON "visit_reservations" USING btree ("barcode","day") WHERE "visit_reservations"."status" = 'waitlisted';--> statement-breakpoint
CREATE INDEX "visit_reservations_window_index" ON "visit_reservations" USING btree ("window_id","status");--> statement-breakpoint
CREATE INDEX "visit_reservations_barcode_index" ON "visit_reservations" USING btree ("barcode","status");--> statement-breakpoint
ALTER TABLE "loyalty_tiers" ADD CONSTRAINT "loyalty_tiers_visit_days_ahead" CHECK ("loyalty_tiers"."visit_days_ahead" between 0 and 365);