ALTER TABLE "loyalty_accounts" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "registrations" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_shares" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;