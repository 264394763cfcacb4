CREATE TABLE "loyalty_email_codes" (
	"email_hash" text PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "revoked_privacy_links" (
	"email_hash" text PRIMARY KEY NOT NULL,
	"revoked_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "loyalty_accounts" ADD COLUMN "email_proven_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "loyalty_accounts" ADD COLUMN "email_proven_by" text;--> statement-breakpoint
ALTER TABLE "loyalty_accounts" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
-- hand-written (keep when renumbering)
-- Accounts staff created were proven by the staff member who created them; guests' accounts prove their email at the next visit.
UPDATE "loyalty_accounts" SET "email_proven_at" = "created_at", "email_proven_by" = 'staff' WHERE "created_by" = 'staff';--> statement-breakpoint
-- Accounts erased before: void like the ones erased from now on.
UPDATE "loyalty_accounts" SET "erased_at" = now() WHERE "email" LIKE 'erased-%@erased.invalid';
