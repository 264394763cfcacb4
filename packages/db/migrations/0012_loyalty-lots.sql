CREATE TABLE "loyalty_lots" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"entry_id" bigint NOT NULL,
	"loyalty_order_id" uuid,
	"points" integer NOT NULL,
	"repaid" integer DEFAULT 0 NOT NULL,
	"remaining" integer NOT NULL,
	"earned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"reminded_at" timestamp with time zone,
	CONSTRAINT "loyalty_lots_entryId_unique" UNIQUE("entry_id"),
	CONSTRAINT "loyalty_lots_points_positive" CHECK ("loyalty_lots"."points" > 0),
	CONSTRAINT "loyalty_lots_remaining_in_range" CHECK ("loyalty_lots"."remaining" >= 0 and "loyalty_lots"."repaid" >= 0 and "loyalty_lots"."remaining" + "loyalty_lots"."repaid" <= "loyalty_lots"."points")
);
--> statement-breakpoint
ALTER TABLE "loyalty_ledger" ADD COLUMN "lot_id" bigint;--> statement-breakpoint
ALTER TABLE "loyalty_lots" ADD CONSTRAINT "loyalty_lots_account_id_loyalty_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."loyalty_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loyalty_lots" ADD CONSTRAINT "loyalty_lots_entry_id_loyalty_ledger_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."loyalty_ledger"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loyalty_lots" ADD CONSTRAINT "loyalty_lots_loyalty_order_id_loyalty_orders_id_fk" FOREIGN KEY ("loyalty_order_id") REFERENCES "public"."loyalty_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "loyalty_lots_spendable_index" ON "loyalty_lots" USING btree ("account_id","expires_at") WHERE "loyalty_lots"."remaining" > 0;--> statement-breakpoint
CREATE INDEX "loyalty_lots_expiring_index" ON "loyalty_lots" USING btree ("expires_at") WHERE "loyalty_lots"."remaining" > 0;--> statement-breakpoint
ALTER TABLE "loyalty_ledger" ADD CONSTRAINT "loyalty_ledger_lot_id_loyalty_lots_id_fk" FOREIGN KEY ("lot_id") REFERENCES "public"."loyalty_lots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "loyalty_ledger_lot_kind_index" ON "loyalty_ledger" USING btree ("lot_id","kind") WHERE "loyalty_ledger"."lot_id" is not null;--> statement-breakpoint
-- The ledger's positive entries become lots. What an account has left, max(balance, 0), stays in
-- its newest lots (spending takes the oldest first); a reversed claim's lot has nothing left
-- (its reversal took from it first). They expire 12 months after they were earned (the default
-- of LOYALTY_POINTS_EXPIRE_MONTHS), but not within 30 days of this upgrade, so every member is
-- told before any point expires.
INSERT INTO "loyalty_lots" ("account_id", "entry_id", "loyalty_order_id", "points", "remaining", "earned_at", "expires_at")
SELECT "account_id", "id", "loyalty_order_id", "points",
       CASE WHEN "reversed" THEN 0 ELSE greatest(0, least("points", "left" - ("newer" - "points"))) END,
       "created_at",
       greatest("created_at" + interval '12 months', now() + interval '30 days')
FROM (
  SELECT e."account_id", e."id", CASE WHEN e."kind" = 'earn' THEN e."loyalty_order_id" END AS "loyalty_order_id", e."points", e."created_at",
         o."reversed_at" IS NOT NULL AS "reversed",
         greatest(0, (SELECT sum(b."points") FROM "loyalty_ledger" b WHERE b."account_id" = e."account_id")) AS "left",
         sum(CASE WHEN o."reversed_at" IS NOT NULL THEN 0 ELSE e."points" END)
           OVER (PARTITION BY e."account_id" ORDER BY e."created_at" DESC, e."id" DESC) AS "newer"
  FROM "loyalty_ledger" e
  LEFT JOIN "loyalty_orders" o ON o."id" = e."loyalty_order_id" AND e."kind" = 'earn'
  WHERE e."points" > 0
) "positive"
ORDER BY "id";
