CREATE TABLE "loyalty_referrals" (
	"referred_id" uuid PRIMARY KEY NOT NULL,
	"referrer_id" uuid NOT NULL,
	"campaign_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"earned_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "loyalty_campaigns" DROP CONSTRAINT "loyalty_campaigns_kind";--> statement-breakpoint
ALTER TABLE "loyalty_accounts" ADD COLUMN "referral_code" text DEFAULT upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 10)) NOT NULL;--> statement-breakpoint
ALTER TABLE "loyalty_campaigns" ADD COLUMN "referrals_per_month" integer;--> statement-breakpoint
ALTER TABLE "loyalty_referrals" ADD CONSTRAINT "loyalty_referrals_referred_id_loyalty_accounts_id_fk" FOREIGN KEY ("referred_id") REFERENCES "public"."loyalty_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loyalty_referrals" ADD CONSTRAINT "loyalty_referrals_referrer_id_loyalty_accounts_id_fk" FOREIGN KEY ("referrer_id") REFERENCES "public"."loyalty_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loyalty_referrals" ADD CONSTRAINT "loyalty_referrals_campaign_id_loyalty_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."loyalty_campaigns"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "loyalty_referrals_referrer_id_created_at_index" ON "loyalty_referrals" USING btree ("referrer_id","created_at");--> statement-breakpoint
ALTER TABLE "loyalty_accounts" ADD CONSTRAINT "loyalty_accounts_referralCode_unique" UNIQUE("referral_code");--> statement-breakpoint
ALTER TABLE "loyalty_campaigns" ADD CONSTRAINT "loyalty_campaigns_referrals_positive" CHECK ("loyalty_campaigns"."referrals_per_month" is null or "loyalty_campaigns"."referrals_per_month" > 0);--> statement-breakpoint
ALTER TABLE "loyalty_campaigns" ADD CONSTRAINT "loyalty_campaigns_kind" CHECK ("loyalty_campaigns"."kind" in ('multiplier', 'bonus', 'birthday', 'referral'));