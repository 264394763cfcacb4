-- The staff Account / Order Lookup: substring search over accounts and their claimed orders
-- with trigram indexes (pg_trgm; PGlite loads it as an extension, packages/db/src/client.ts),
-- and exact matches of a whole order id, barcode, check or reservation number first.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "loyalty_accounts_search_index" ON "loyalty_accounts" USING gin (lower("email" || ' ' || "first_name" || ' ' || "last_name" || ' ' || coalesce("phone", '') || ' ' || coalesce("zip", '') || ' ' || "member_number") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "loyalty_orders_search_index" ON "loyalty_orders" USING gin (lower("reference" || ' ' || "source_id") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "loyalty_orders_reference_lower_index" ON "loyalty_orders" USING btree (lower("reference"));--> statement-breakpoint
CREATE INDEX "loyalty_orders_source_id_lower_index" ON "loyalty_orders" USING btree (lower("source_id"));