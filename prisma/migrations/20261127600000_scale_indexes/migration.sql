-- The admin lists at a million payments (issue 21): keyset pages in (time, id) order, newest first,
-- each filter with an index that reads just its rows in that order; customer search by substring of
-- name, e-mail or phone through trigram indexes (pg_trgm), exact PAN and full phone numbers through
-- their unique indexes.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX "users_created_at_id_idx" ON "users"("created_at", "id");
CREATE INDEX "users_name_trgm_idx" ON "users" USING gin ("name" gin_trgm_ops);
CREATE INDEX "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);
CREATE INDEX "users_phone_trgm_idx" ON "users" USING gin ("phone" gin_trgm_ops);

-- /admin/payments: by method, by status, by both (the date range is a range on created_at within them).
CREATE INDEX "payments_method_created_at_id_idx" ON "payments"("method", "created_at", "id");
CREATE INDEX "payments_method_status_created_at_id_idx" ON "payments"("method", "status", "created_at", "id");
CREATE INDEX "payments_status_created_at_id_idx" ON "payments"("status", "created_at", "id");
DROP INDEX "payments_status_created_at_idx";

-- /admin/refunds: all refunds, or one status, newest first.
CREATE INDEX "refunds_created_at_id_idx" ON "refunds"("created_at", "id");
CREATE INDEX "refunds_status_created_at_id_idx" ON "refunds"("status", "created_at", "id");
DROP INDEX "refunds_status_created_at_idx";
