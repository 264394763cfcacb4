CREATE TABLE "pass_locks" (
	"barcode" text PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"locked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pass_locks" ADD CONSTRAINT "pass_locks_barcode_tickets_barcode_fk" FOREIGN KEY ("barcode") REFERENCES "public"."tickets"("barcode") ON DELETE cascade ON UPDATE no action;