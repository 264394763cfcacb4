-- Wallet passes for loyalty members too: the serial number becomes the key, a pass belongs to
-- a ticket (barcode) or a loyalty account, exactly one. The two tables that reference the
-- serial number are re-pointed at the new primary key.
ALTER TABLE "apple_device_registrations" DROP CONSTRAINT "apple_device_registrations_serial_number_wallet_passes_serial_number_fk";--> statement-breakpoint
ALTER TABLE "wallet_pass_tokens" DROP CONSTRAINT "wallet_pass_tokens_serial_number_wallet_passes_serial_number_fk";--> statement-breakpoint
ALTER TABLE "wallet_passes" DROP CONSTRAINT "wallet_passes_serialNumber_unique";--> statement-breakpoint
ALTER TABLE "wallet_passes" DROP CONSTRAINT "wallet_passes_pkey";--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD PRIMARY KEY ("serial_number");--> statement-breakpoint
ALTER TABLE "wallet_passes" ALTER COLUMN "barcode" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD CONSTRAINT "wallet_passes_barcode_unique" UNIQUE("barcode");--> statement-breakpoint
ALTER TABLE "apple_device_registrations" ADD CONSTRAINT "apple_device_registrations_serial_number_wallet_passes_serial_number_fk" FOREIGN KEY ("serial_number") REFERENCES "public"."wallet_passes"("serial_number") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_pass_tokens" ADD CONSTRAINT "wallet_pass_tokens_serial_number_wallet_passes_serial_number_fk" FOREIGN KEY ("serial_number") REFERENCES "public"."wallet_passes"("serial_number") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD COLUMN "loyalty_account_id" uuid;--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD CONSTRAINT "wallet_passes_loyalty_account_id_loyalty_accounts_id_fk" FOREIGN KEY ("loyalty_account_id") REFERENCES "public"."loyalty_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD CONSTRAINT "wallet_passes_loyaltyAccountId_unique" UNIQUE("loyalty_account_id");--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD CONSTRAINT "wallet_passes_one_holder" CHECK (num_nonnulls("wallet_passes"."barcode", "wallet_passes"."loyalty_account_id") = 1);--> statement-breakpoint
-- Loyalty in the back office: the member's season pass id and contact details.
ALTER TABLE "loyalty_accounts" ADD COLUMN "season_pass_id" text;--> statement-breakpoint
ALTER TABLE "loyalty_accounts" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "loyalty_accounts" ADD COLUMN "zip" text;--> statement-breakpoint
ALTER TABLE "loyalty_accounts" ADD CONSTRAINT "loyalty_accounts_seasonPassId_unique" UNIQUE("season_pass_id");
