CREATE INDEX "apple_device_registrations_created_at_index" ON "apple_device_registrations" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "deliveries_sent_at_index" ON "deliveries" USING btree ("sent_at");--> statement-breakpoint
CREATE INDEX "google_wallet_callbacks_received_at_index" ON "google_wallet_callbacks" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "loyalty_accounts_created_at_index" ON "loyalty_accounts" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "loyalty_ledger_created_at_kind_points_index" ON "loyalty_ledger" USING btree ("created_at","kind","points");--> statement-breakpoint
CREATE INDEX "loyalty_orders_claimed_at_source_type_index" ON "loyalty_orders" USING btree ("claimed_at","source_type");