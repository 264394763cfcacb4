CREATE TABLE "loyalty_redemptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"idempotency_key" text NOT NULL,
	"account_id" uuid NOT NULL,
	"reward_id" uuid NOT NULL,
	"reward_name" text NOT NULL,
	"points_spent" integer NOT NULL,
	"balance_after" integer NOT NULL,
	"caused_by" text NOT NULL,
	"staff_member" text,
	"redeemed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reversed_at" timestamp with time zone,
	CONSTRAINT "loyalty_redemptions_idempotencyKey_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "loyalty_redemptions_points_spent_positive" CHECK ("loyalty_redemptions"."points_spent" > 0)
);
--> statement-breakpoint
ALTER TABLE "loyalty_ledger" ADD COLUMN "redemption_id" uuid;--> statement-breakpoint
ALTER TABLE "loyalty_redemptions" ADD CONSTRAINT "loyalty_redemptions_account_id_loyalty_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."loyalty_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loyalty_redemptions" ADD CONSTRAINT "loyalty_redemptions_reward_id_loyalty_rewards_id_fk" FOREIGN KEY ("reward_id") REFERENCES "public"."loyalty_rewards"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "loyalty_redemptions_account_id_reward_id_index" ON "loyalty_redemptions" USING btree ("account_id","reward_id");--> statement-breakpoint
ALTER TABLE "loyalty_ledger" ADD CONSTRAINT "loyalty_ledger_redemption_id_loyalty_redemptions_id_fk" FOREIGN KEY ("redemption_id") REFERENCES "public"."loyalty_redemptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "loyalty_ledger_redemption_kind_index" ON "loyalty_ledger" USING btree ("redemption_id","kind") WHERE "loyalty_ledger"."redemption_id" is not null;