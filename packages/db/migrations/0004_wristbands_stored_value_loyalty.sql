CREATE SEQUENCE "public"."loyalty_member_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "loyalty_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_number" text DEFAULT ('77' || lpad(nextval('loyalty_member_number_seq')::text, 14, '0')) NOT NULL,
	"email" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loyalty_accounts_memberNumber_unique" UNIQUE("member_number")
);
--> statement-breakpoint
CREATE TABLE "loyalty_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"points" integer NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"loyalty_order_id" uuid,
	"source_type" text,
	"source_id" text,
	"caused_by" text NOT NULL,
	"staff_member" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "loyalty_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"source_type" text NOT NULL,
	"source_id" text NOT NULL,
	"reference" text NOT NULL,
	"product" text NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"purchased_at" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reversed_at" timestamp with time zone
);
--> statement-breakpoint
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
ALTER TABLE "checks" ADD COLUMN "receipt_code" text;--> statement-breakpoint
ALTER TABLE "loyalty_ledger" ADD CONSTRAINT "loyalty_ledger_account_id_loyalty_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."loyalty_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loyalty_ledger" ADD CONSTRAINT "loyalty_ledger_loyalty_order_id_loyalty_orders_id_fk" FOREIGN KEY ("loyalty_order_id") REFERENCES "public"."loyalty_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loyalty_orders" ADD CONSTRAINT "loyalty_orders_account_id_loyalty_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."loyalty_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_value_links" ADD CONSTRAINT "stored_value_links_barcode_tickets_barcode_fk" FOREIGN KEY ("barcode") REFERENCES "public"."tickets"("barcode") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "loyalty_accounts_email_lower_index" ON "loyalty_accounts" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "loyalty_ledger_account_id_index" ON "loyalty_ledger" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "loyalty_ledger_order_kind_index" ON "loyalty_ledger" USING btree ("loyalty_order_id","kind") WHERE "loyalty_ledger"."loyalty_order_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "loyalty_orders_standing_source_index" ON "loyalty_orders" USING btree ("source_type","source_id") WHERE "loyalty_orders"."reversed_at" is null;--> statement-breakpoint
CREATE INDEX "loyalty_orders_account_id_index" ON "loyalty_orders" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "wristband_bindings_active_ticket_index" ON "wristband_bindings" USING btree ("barcode") WHERE "wristband_bindings"."deactivated_at" is null;--> statement-breakpoint
CREATE INDEX "checks_receipt_code_index" ON "checks" USING btree ("receipt_code");--> statement-breakpoint
-- The points ledger is append-only: an entry is never changed (a correction is a new entry).
CREATE FUNCTION "loyalty_ledger_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'loyalty_ledger is append-only: write a new entry instead';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "loyalty_ledger_no_update" BEFORE UPDATE ON "loyalty_ledger" FOR EACH ROW EXECUTE FUNCTION "loyalty_ledger_append_only"();
