DROP INDEX "loyalty_ledger_account_id_index";--> statement-breakpoint
CREATE INDEX "loyalty_ledger_account_id_id_index" ON "loyalty_ledger" USING btree ("account_id","id");