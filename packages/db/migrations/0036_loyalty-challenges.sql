CREATE TABLE "loyalty_challenge_completions" (
	"account_id" uuid NOT NULL,
	"campaign_id" uuid NOT NULL,
	"points" integer NOT NULL,
	"completed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loyalty_challenge_completions_account_id_campaign_id_pk" PRIMARY KEY("account_id","campaign_id")
);
--> statement-breakpoint
ALTER TABLE "loyalty_campaigns" DROP CONSTRAINT "loyalty_campaigns_kind";--> statement-breakpoint
ALTER TABLE "loyalty_campaigns" ADD COLUMN "goal" text;--> statement-breakpoint
ALTER TABLE "loyalty_campaigns" ADD COLUMN "goal_count" integer;--> statement-breakpoint
ALTER TABLE "loyalty_challenge_completions" ADD CONSTRAINT "loyalty_challenge_completions_account_id_loyalty_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."loyalty_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loyalty_challenge_completions" ADD CONSTRAINT "loyalty_challenge_completions_campaign_id_loyalty_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."loyalty_campaigns"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "loyalty_accounts_mailbox_index" ON "loyalty_accounts" USING btree (regexp_replace(lower("email"), '[+][^@]*@', '@'));--> statement-breakpoint
ALTER TABLE "loyalty_campaigns" ADD CONSTRAINT "loyalty_campaigns_goal" CHECK ("loyalty_campaigns"."goal" is null or "loyalty_campaigns"."goal" in ('days', 'outlets', 'nights'));--> statement-breakpoint
ALTER TABLE "loyalty_campaigns" ADD CONSTRAINT "loyalty_campaigns_goal_count_positive" CHECK ("loyalty_campaigns"."goal_count" is null or "loyalty_campaigns"."goal_count" > 0);--> statement-breakpoint
ALTER TABLE "loyalty_campaigns" ADD CONSTRAINT "loyalty_campaigns_challenge_goal" CHECK (("loyalty_campaigns"."kind" = 'challenge') = ("loyalty_campaigns"."goal" is not null and "loyalty_campaigns"."goal_count" is not null));--> statement-breakpoint
ALTER TABLE "loyalty_campaigns" ADD CONSTRAINT "loyalty_campaigns_kind" CHECK ("loyalty_campaigns"."kind" in ('multiplier', 'bonus', 'birthday', 'referral', 'challenge'));