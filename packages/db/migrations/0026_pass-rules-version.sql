CREATE TABLE "pass_rules_version" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"version" bigint NOT NULL,
	"written_by" bigint,
	CONSTRAINT "pass_rules_version_one_row" CHECK ("pass_rules_version"."id")
);
--> statement-breakpoint
INSERT INTO "pass_rules_version" ("id", "version") VALUES (true, 0);--> statement-breakpoint
-- Every statement that writes a pass rule moves the version on and names its top-level
-- transaction: a process's copy of the rules is current while its version is the committed one,
-- and a transaction that reads a version it wrote itself does not keep its copy
-- (apps/api/src/guest/ticket/pass-rules.service.ts). Staff writes serialize on this row; they
-- are few.
CREATE FUNCTION "pass_rules_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "pass_rules_version" SET "version" = "version" + 1, "written_by" = pg_current_xact_id()::text::bigint;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "pass_customizations_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "pass_customizations" FOR EACH STATEMENT EXECUTE FUNCTION "pass_rules_changed"();--> statement-breakpoint
CREATE TRIGGER "pass_customization_categories_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "pass_customization_categories" FOR EACH STATEMENT EXECUTE FUNCTION "pass_rules_changed"();--> statement-breakpoint
CREATE TRIGGER "wallet_exceptions_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "wallet_exceptions" FOR EACH STATEMENT EXECUTE FUNCTION "pass_rules_changed"();--> statement-breakpoint
CREATE TRIGGER "wallet_item_exclusions_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "wallet_item_exclusions" FOR EACH STATEMENT EXECUTE FUNCTION "pass_rules_changed"();--> statement-breakpoint
CREATE TRIGGER "wristband_merch_pack_ids_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "wristband_merch_pack_ids" FOR EACH STATEMENT EXECUTE FUNCTION "pass_rules_changed"();
