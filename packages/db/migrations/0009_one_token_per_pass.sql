-- A pass's authentication token is now derived from its serial number, so downloads add no
-- row. Of the tokens issued before, only those a registered device most likely holds stay:
-- for each registration, the newest token of its pass issued at or before the device
-- registered (a device registers right after adding the pass it downloaded). The others
-- (passes downloaded but never added, and every extra download) are removed.
DELETE FROM "wallet_pass_tokens" t
WHERE NOT EXISTS (
  SELECT 1 FROM "apple_device_registrations" r
  WHERE r."serial_number" = t."serial_number"
    AND t."token_hash" = (
      SELECT t2."token_hash" FROM "wallet_pass_tokens" t2
      WHERE t2."serial_number" = r."serial_number" AND t2."created_at" <= r."created_at"
      ORDER BY t2."created_at" DESC, t2."token_hash"
      LIMIT 1
    )
);
