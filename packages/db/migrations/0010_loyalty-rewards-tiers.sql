CREATE TABLE "loyalty_rewards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"points_cost" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"valid_from" timestamp with time zone,
	"valid_to" timestamp with time zone,
	"minimum_tier" text,
	"limit_per_member" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loyalty_rewards_points_cost_positive" CHECK ("loyalty_rewards"."points_cost" > 0),
	CONSTRAINT "loyalty_rewards_limit_positive" CHECK ("loyalty_rewards"."limit_per_member" is null or "loyalty_rewards"."limit_per_member" > 0),
	CONSTRAINT "loyalty_rewards_dates_in_order" CHECK ("loyalty_rewards"."valid_from" is null or "loyalty_rewards"."valid_to" is null or "loyalty_rewards"."valid_from" <= "loyalty_rewards"."valid_to")
);
--> statement-breakpoint
CREATE TABLE "loyalty_tiers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"points_to_reach" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loyalty_tiers_name_unique" UNIQUE("name"),
	CONSTRAINT "loyalty_tiers_pointsToReach_unique" UNIQUE("points_to_reach"),
	CONSTRAINT "loyalty_tiers_points_to_reach_positive" CHECK ("loyalty_tiers"."points_to_reach" > 0)
);
--> statement-breakpoint
ALTER TABLE "loyalty_rewards" ADD CONSTRAINT "loyalty_rewards_minimum_tier_loyalty_tiers_name_fk" FOREIGN KEY ("minimum_tier") REFERENCES "public"."loyalty_tiers"("name") ON DELETE restrict ON UPDATE cascade;