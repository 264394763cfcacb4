CREATE INDEX "loyalty_accounts_phone_key_index" ON "loyalty_accounts" USING btree (right(regexp_replace("phone", '[^0-9]', '', 'g'), 10));--> statement-breakpoint
CREATE INDEX "orders_purchaser_email_key_index" ON "orders" USING btree (lower("purchaser_email"));--> statement-breakpoint
CREATE INDEX "orders_purchaser_phone_key_index" ON "orders" USING btree (right(regexp_replace("purchaser_phone", '[^0-9]', '', 'g'), 10));--> statement-breakpoint
CREATE INDEX "outbox_to_key_index" ON "outbox" USING btree (lower("to"));--> statement-breakpoint
CREATE INDEX "registrations_email_key_index" ON "registrations" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "registrations_phone_key_index" ON "registrations" USING btree (right(regexp_replace("phone", '[^0-9]', '', 'g'), 10));--> statement-breakpoint
CREATE INDEX "reservations_email_key_index" ON "reservations" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "ticket_shares_email_key_index" ON "ticket_shares" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "ticket_shares_phone_key_index" ON "ticket_shares" USING btree (right(regexp_replace("phone", '[^0-9]', '', 'g'), 10));--> statement-breakpoint
CREATE INDEX "tickets_holder_email_key_index" ON "tickets" USING btree (lower("holder_email"));--> statement-breakpoint
CREATE INDEX "tickets_holder_phone_key_index" ON "tickets" USING btree (right(regexp_replace("holder_phone", '[^0-9]', '', 'g'), 10));