ALTER TABLE "wallet_passes" DROP CONSTRAINT "wallet_passes_one_holder";--> statement-breakpoint
ALTER TABLE "wallet_passes" DROP CONSTRAINT "wallet_passes_loyalty_account_id_loyalty_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD COLUMN "voided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD CONSTRAINT "wallet_passes_loyalty_account_id_loyalty_accounts_id_fk" FOREIGN KEY ("loyalty_account_id") REFERENCES "public"."loyalty_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_passes" ADD CONSTRAINT "wallet_passes_one_holder" CHECK (num_nonnulls("wallet_passes"."barcode", "wallet_passes"."loyalty_account_id", "wallet_passes"."voided_at") = 1);