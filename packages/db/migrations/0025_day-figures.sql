CREATE TABLE "loyalty_day_figures" (
	"day" date PRIMARY KEY NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"tickets" bigint NOT NULL,
	"food_and_beverage" bigint NOT NULL,
	"hotel" bigint NOT NULL,
	"new_members" bigint NOT NULL,
	"earned" bigint NOT NULL,
	"redeemed" bigint NOT NULL,
	"reversed" bigint NOT NULL,
	"expired" bigint NOT NULL,
	"adjusted" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "loyalty_ledger_account_earns_index" ON "loyalty_ledger" USING btree ("account_id","created_at","points") WHERE "loyalty_ledger"."kind" = 'earn' and "loyalty_ledger"."loyalty_order_id" is not null;--> statement-breakpoint
-- A row inserted into or deleted from the club's tables on a day whose Dashboard figures were
-- counted (loyalty_day_figures) deletes those figures, and a TRUNCATE all of them; the next
-- Dashboard counts those days again. One trigger per table and event, once per statement, over
-- the statement's rows (a transition table; a removed account's rows go by its foreign keys'
-- cascades, whose statements fire these triggers too). While a count is running (it holds SHARE
-- ROW EXCLUSIVE on loyalty_day_figures) the DELETE waits for its ROW EXCLUSIVE lock, and
-- PostgreSQL takes a statement's snapshot after its locks, so it sees and deletes the figures the
-- count has just written (apps/api/src/staff/dashboard/dashboard.test.ts).
CREATE FUNCTION "loyalty_day_figures_forget"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM "loyalty_day_figures";
  ELSIF TG_TABLE_NAME = 'loyalty_orders' THEN
    DELETE FROM "loyalty_day_figures" f USING "changed_rows" c WHERE c."claimed_at" >= f."starts_at" AND c."claimed_at" < f."ends_at";
  ELSE
    DELETE FROM "loyalty_day_figures" f USING "changed_rows" c WHERE c."created_at" >= f."starts_at" AND c."created_at" < f."ends_at";
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- What places a row in a day's figures is never changed (the ledger is append-only already):
-- loyalty_orders.claimed_at and source_type, loyalty_accounts.created_at.
CREATE FUNCTION "loyalty_day_figures_fixed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '%: the columns that place a row in the Dashboard''s days cannot change', TG_TABLE_NAME;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "loyalty_orders_day_fixed" BEFORE UPDATE ON "loyalty_orders" FOR EACH ROW WHEN (OLD."claimed_at" IS DISTINCT FROM NEW."claimed_at" OR OLD."source_type" IS DISTINCT FROM NEW."source_type") EXECUTE FUNCTION "loyalty_day_figures_fixed"();--> statement-breakpoint
CREATE TRIGGER "loyalty_accounts_day_fixed" BEFORE UPDATE ON "loyalty_accounts" FOR EACH ROW WHEN (OLD."created_at" IS DISTINCT FROM NEW."created_at") EXECUTE FUNCTION "loyalty_day_figures_fixed"();--> statement-breakpoint
CREATE TRIGGER "loyalty_orders_inserted_day_figures" AFTER INSERT ON "loyalty_orders" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "loyalty_day_figures_forget"();--> statement-breakpoint
CREATE TRIGGER "loyalty_orders_deleted_day_figures" AFTER DELETE ON "loyalty_orders" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "loyalty_day_figures_forget"();--> statement-breakpoint
CREATE TRIGGER "loyalty_orders_truncated_day_figures" AFTER TRUNCATE ON "loyalty_orders" FOR EACH STATEMENT EXECUTE FUNCTION "loyalty_day_figures_forget"();--> statement-breakpoint
CREATE TRIGGER "loyalty_ledger_inserted_day_figures" AFTER INSERT ON "loyalty_ledger" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "loyalty_day_figures_forget"();--> statement-breakpoint
CREATE TRIGGER "loyalty_ledger_deleted_day_figures" AFTER DELETE ON "loyalty_ledger" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "loyalty_day_figures_forget"();--> statement-breakpoint
CREATE TRIGGER "loyalty_ledger_truncated_day_figures" AFTER TRUNCATE ON "loyalty_ledger" FOR EACH STATEMENT EXECUTE FUNCTION "loyalty_day_figures_forget"();--> statement-breakpoint
CREATE TRIGGER "loyalty_accounts_inserted_day_figures" AFTER INSERT ON "loyalty_accounts" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "loyalty_day_figures_forget"();--> statement-breakpoint
CREATE TRIGGER "loyalty_accounts_deleted_day_figures" AFTER DELETE ON "loyalty_accounts" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "loyalty_day_figures_forget"();--> statement-breakpoint
CREATE TRIGGER "loyalty_accounts_truncated_day_figures" AFTER TRUNCATE ON "loyalty_accounts" FOR EACH STATEMENT EXECUTE FUNCTION "loyalty_day_figures_forget"();
