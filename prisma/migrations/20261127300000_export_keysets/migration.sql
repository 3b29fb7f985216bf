-- The CSV export streams any range in (time, id) batches: each batch starts where the last ended.
CREATE INDEX "payments_created_at_id_idx" ON "payments"("created_at", "id");
CREATE INDEX "subscriptions_starts_at_id_idx" ON "subscriptions"("starts_at", "id");
DROP INDEX "ledger_entries_occurred_at_idx";
CREATE INDEX "ledger_entries_occurred_at_id_idx" ON "ledger_entries"("occurred_at", "id");
