CREATE TABLE "loyalty_card_clock" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"checked_until" timestamp with time zone NOT NULL,
	CONSTRAINT "loyalty_card_clock_one_row" CHECK ("loyalty_card_clock"."id")
);
--> statement-breakpoint
CREATE INDEX "loyalty_ledger_earned_at_index" ON "loyalty_ledger" USING btree ("created_at") WHERE "loyalty_ledger"."kind" = 'earn';