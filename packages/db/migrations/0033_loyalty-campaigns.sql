CREATE TABLE "loyalty_campaigns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"name_es" text,
	"kind" text NOT NULL,
	"multiplier" numeric(4, 2),
	"bonus_points" integer,
	"valid_from" date NOT NULL,
	"valid_to" date NOT NULL,
	"tickets" boolean DEFAULT true NOT NULL,
	"food_and_beverage" boolean DEFAULT true NOT NULL,
	"hotel" boolean DEFAULT true NOT NULL,
	"minimum_tier" text,
	"budget" integer,
	"cap_per_member" integer,
	"active" boolean DEFAULT true NOT NULL,
	"budget_spent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loyalty_campaigns_name_unique" UNIQUE("name"),
	CONSTRAINT "loyalty_campaigns_kind" CHECK ("loyalty_campaigns"."kind" in ('multiplier', 'bonus')),
	CONSTRAINT "loyalty_campaigns_multiplier_range" CHECK ("loyalty_campaigns"."multiplier" is null or ("loyalty_campaigns"."multiplier" > 1 and "loyalty_campaigns"."multiplier" <= 10)),
	CONSTRAINT "loyalty_campaigns_bonus_positive" CHECK ("loyalty_campaigns"."bonus_points" is null or "loyalty_campaigns"."bonus_points" > 0),
	CONSTRAINT "loyalty_campaigns_budget_positive" CHECK ("loyalty_campaigns"."budget" is null or "loyalty_campaigns"."budget" > 0),
	CONSTRAINT "loyalty_campaigns_cap_positive" CHECK ("loyalty_campaigns"."cap_per_member" is null or "loyalty_campaigns"."cap_per_member" > 0),
	CONSTRAINT "loyalty_campaigns_dates_in_order" CHECK ("loyalty_campaigns"."valid_from" <= "loyalty_campaigns"."valid_to")
);
--> statement-breakpoint
ALTER TABLE "loyalty_day_figures" ADD COLUMN "campaigns" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "loyalty_ledger" ADD COLUMN "campaign_id" uuid;--> statement-breakpoint
ALTER TABLE "loyalty_campaigns" ADD CONSTRAINT "loyalty_campaigns_minimum_tier_loyalty_tiers_name_fk" FOREIGN KEY ("minimum_tier") REFERENCES "public"."loyalty_tiers"("name") ON DELETE restrict ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "loyalty_ledger" ADD CONSTRAINT "loyalty_ledger_campaign_id_loyalty_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."loyalty_campaigns"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "loyalty_ledger_campaign_index" ON "loyalty_ledger" USING btree ("campaign_id","kind","points") WHERE "loyalty_ledger"."campaign_id" is not null;--> statement-breakpoint
CREATE INDEX "loyalty_ledger_account_campaign_index" ON "loyalty_ledger" USING btree ("account_id","campaign_id","kind","points") WHERE "loyalty_ledger"."campaign_id" is not null;