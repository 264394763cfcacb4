ALTER TABLE "loyalty_rewards" ADD COLUMN "name_es" text;--> statement-breakpoint
ALTER TABLE "loyalty_rewards" ADD COLUMN "description_es" text;--> statement-breakpoint
ALTER TABLE "loyalty_tiers" ADD COLUMN "name_es" text;--> statement-breakpoint
ALTER TABLE "park_locations" ADD COLUMN "relevant_text_es" text;--> statement-breakpoint
ALTER TABLE "pass_customizations" ADD COLUMN "instructions_es" text;--> statement-breakpoint
ALTER TABLE "pass_customizations" ADD COLUMN "google_instructions_es" text;--> statement-breakpoint
ALTER TABLE "wallet_item_exclusions" ADD COLUMN "custom_error_es" text;