ALTER TABLE "deliveries" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "serial_number" uuid;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "device_library_identifier" text;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "pass_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "listed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "fetched_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "object_version" text;--> statement-breakpoint
CREATE INDEX "deliveries_updated_at_index" ON "deliveries" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "deliveries_target_sent_at_index" ON "deliveries" USING btree ("target","sent_at");--> statement-breakpoint
CREATE INDEX "deliveries_serial_number_device_library_identifier_index" ON "deliveries" USING btree ("serial_number","device_library_identifier") WHERE "deliveries"."serial_number" is not null;--> statement-breakpoint
UPDATE "deliveries" SET "sent_at" = "updated_at" WHERE "state" = 'sent';
