CREATE TABLE "google_wallet_classes" (
	"class_id" text PRIMARY KEY NOT NULL,
	"content_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "park_hours" (
	"guid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"opens_at" timestamp with time zone NOT NULL,
	"closes_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "park_hours_in_order" CHECK ("park_hours"."closes_at" > "park_hours"."opens_at")
);
--> statement-breakpoint
CREATE TABLE "park_locations" (
	"guid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"latitude" numeric(9, 6) NOT NULL,
	"longitude" numeric(9, 6) NOT NULL,
	"relevant_text" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "wallet_passes" DROP CONSTRAINT "wallet_passes_one_holder";--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "visit_date" date;--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD COLUMN "share_id" uuid;--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD COLUMN "google_object_kind" text;--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD COLUMN "google_notified_at" timestamp with time zone[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD COLUMN "void_reason" text;--> statement-breakpoint
CREATE INDEX "park_hours_opens_at_index" ON "park_hours" USING btree ("opens_at");--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD CONSTRAINT "wallet_passes_share_id_ticket_shares_share_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."ticket_shares"("share_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD CONSTRAINT "wallet_passes_shareId_unique" UNIQUE("share_id");--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD CONSTRAINT "wallet_passes_one_holder" CHECK (num_nonnulls("wallet_passes"."barcode", "wallet_passes"."share_id", "wallet_passes"."loyalty_account_id", "wallet_passes"."voided_at") = 1);--> statement-breakpoint
-- Google objects handed out before tickets had kinds are generic objects, and stay so.
UPDATE "wallet_passes" SET "google_object_kind" = 'genericObject' WHERE "google_issued" AND "barcode" IS NOT NULL;
