CREATE TABLE "pass_rules_version" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"version" bigint NOT NULL,
	CONSTRAINT "pass_rules_version_one_row" CHECK ("pass_rules_version"."id")
);
--> statement-breakpoint
INSERT INTO "pass_rules_version" ("id", "version") VALUES (true, 0);--> statement-breakpoint
-- Every statement that writes a pass rule moves the version on, in its own transaction: a
-- process's copy of the rules is current while its version is the committed one
-- (apps/api/src/guest/ticket/pass-rules.ts). Staff writes serialize on this row; they are few.
CREATE FUNCTION "pass_rules_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "pass_rules_version" SET "version" = "version" + 1;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "pass_customizations_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "pass_customizations" FOR EACH STATEMENT EXECUTE FUNCTION "pass_rules_changed"();--> statement-breakpoint
CREATE TRIGGER "pass_customization_categories_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "pass_customization_categories" FOR EACH STATEMENT EXECUTE FUNCTION "pass_rules_changed"();--> statement-breakpoint
CREATE TRIGGER "wallet_exceptions_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "wallet_exceptions" FOR EACH STATEMENT EXECUTE FUNCTION "pass_rules_changed"();--> statement-breakpoint
CREATE TRIGGER "wallet_item_exclusions_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "wallet_item_exclusions" FOR EACH STATEMENT EXECUTE FUNCTION "pass_rules_changed"();--> statement-breakpoint
CREATE TRIGGER "wristband_merch_pack_ids_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "wristband_merch_pack_ids" FOR EACH STATEMENT EXECUTE FUNCTION "pass_rules_changed"();
