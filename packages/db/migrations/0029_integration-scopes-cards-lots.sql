CREATE TABLE "loyalty_redemption_lots" (
	"redemption_id" uuid NOT NULL,
	"lot_id" bigint NOT NULL,
	"points" integer NOT NULL,
	CONSTRAINT "loyalty_redemption_lots_redemption_id_lot_id_pk" PRIMARY KEY("redemption_id","lot_id"),
	CONSTRAINT "loyalty_redemption_lots_points_positive" CHECK ("loyalty_redemption_lots"."points" > 0)
);
--> statement-breakpoint
ALTER TABLE "loyalty_redemptions" DROP CONSTRAINT "loyalty_redemptions_idempotencyKey_unique";--> statement-breakpoint
ALTER TABLE "integration_events" ADD COLUMN "system" text;--> statement-breakpoint
ALTER TABLE "loyalty_accounts" ADD COLUMN "card_token" text DEFAULT replace(gen_random_uuid()::text, '-', '') NOT NULL;--> statement-breakpoint
ALTER TABLE "loyalty_ledger" ADD COLUMN "system" text;--> statement-breakpoint
ALTER TABLE "loyalty_redemptions" ADD COLUMN "system" text;--> statement-breakpoint
ALTER TABLE "loyalty_redemption_lots" ADD CONSTRAINT "loyalty_redemption_lots_redemption_id_loyalty_redemptions_id_fk" FOREIGN KEY ("redemption_id") REFERENCES "public"."loyalty_redemptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loyalty_redemption_lots" ADD CONSTRAINT "loyalty_redemption_lots_lot_id_loyalty_lots_id_fk" FOREIGN KEY ("lot_id") REFERENCES "public"."loyalty_lots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loyalty_accounts" ADD CONSTRAINT "loyalty_accounts_cardToken_unique" UNIQUE("card_token");--> statement-breakpoint
ALTER TABLE "loyalty_redemptions" ADD CONSTRAINT "loyalty_redemptions_system_key_unique" UNIQUE NULLS NOT DISTINCT("system","idempotency_key");--> statement-breakpoint
-- hand-written (keep when renumbering)
-- Every existing account got its own random card_token above (a volatile default is evaluated
-- per row). The member cards already in wallets carry the member number as their barcode:
-- forgetting how far the expiry job's pass over time looked makes its next pass (at start, then
-- hourly) a first pass, which republishes every member card once (loyalty-tiers.changed), now
-- with the token as the barcode.
DELETE FROM "loyalty_card_clock";
