-- The money ledger: one row per amount that moves between a customer and the business. A payment
-- is a positive row, a refund a negative one; gst_paise is the GST contained in amount_paise (same
-- sign, 0 when the business is not GST-registered), so the taxable value is amount - gst and is
-- never stored. Each row carries its tax document: the payment's invoice (or receipt) number, the
-- refund's credit note number.
CREATE TYPE "LedgerEntryKind" AS ENUM ('PAYMENT', 'REFUND');

CREATE TABLE "ledger_entries" (
    "id" BIGSERIAL NOT NULL,
    "user_id" UUID NOT NULL,
    "kind" "LedgerEntryKind" NOT NULL,
    "payment_id" UUID NOT NULL,
    "refund_id" UUID,
    "amount_paise" INTEGER NOT NULL,
    "gst_paise" INTEGER NOT NULL,
    "gst_rate_basis_points" INTEGER NOT NULL,
    "seller_gstin" TEXT,
    "document_number" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ledger_entries_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "ledger_entries_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "ledger_entries_payment_or_refund" CHECK (
        ("kind" = 'PAYMENT' AND "amount_paise" > 0 AND "refund_id" IS NULL)
        OR ("kind" = 'REFUND' AND "amount_paise" < 0 AND "refund_id" IS NOT NULL)),
    CONSTRAINT "ledger_entries_gst_within_amount" CHECK (
        ("amount_paise" > 0 AND "gst_paise" >= 0 AND "gst_paise" < "amount_paise")
        OR ("amount_paise" < 0 AND "gst_paise" <= 0 AND "gst_paise" > "amount_paise")),
    CONSTRAINT "ledger_entries_gst_registered" CHECK (("gst_rate_basis_points" > 0) = ("seller_gstin" IS NOT NULL))
);

-- One PAYMENT row per payment (refund_id NULL), one REFUND row per refund.
CREATE UNIQUE INDEX "ledger_entries_payment_id_refund_id_key" ON "ledger_entries"("payment_id", "refund_id") NULLS NOT DISTINCT;
CREATE UNIQUE INDEX "ledger_entries_document_number_key" ON "ledger_entries"("document_number");
CREATE INDEX "ledger_entries_user_id_occurred_at_idx" ON "ledger_entries"("user_id", "occurred_at");
CREATE INDEX "ledger_entries_occurred_at_idx" ON "ledger_entries"("occurred_at");

-- The last number issued in each series (INV, RCT, CN) of each Indian financial year ("2026-27").
-- Incremented in the transaction that writes the ledger row, so a number is never skipped or reused.
CREATE TABLE "document_sequences" (
    "series" TEXT NOT NULL,
    "financial_year" TEXT NOT NULL,
    "last_number" INTEGER NOT NULL,

    CONSTRAINT "document_sequences_pkey" PRIMARY KEY ("series", "financial_year"),
    CONSTRAINT "document_sequences_positive" CHECK ("last_number" > 0)
);

-- Payments paid before the ledger existed get their rows now: receipts (no GST recorded for them),
-- numbered in the order they were paid within each financial year.
WITH paid AS (
    SELECT p.id, p.user_id, p.amount_paise, p.paid_at,
           to_char((p.paid_at AT TIME ZONE 'Asia/Kolkata') - INTERVAL '3 months', 'YYYY') AS fy_start,
           row_number() OVER (
               PARTITION BY to_char((p.paid_at AT TIME ZONE 'Asia/Kolkata') - INTERVAL '3 months', 'YYYY')
               ORDER BY p.paid_at, p.id) AS n
    FROM "payments" p
    WHERE p.status = 'PAID'
)
INSERT INTO "ledger_entries" ("user_id", "kind", "payment_id", "amount_paise", "gst_paise", "gst_rate_basis_points", "document_number", "occurred_at")
SELECT user_id, 'PAYMENT', id, amount_paise, 0, 0,
       'RCT/' || right(fy_start, 2) || lpad(((fy_start::int + 1) % 100)::text, 2, '0') || '/' || lpad(n::text, 6, '0'),
       paid_at
FROM paid;

INSERT INTO "document_sequences" ("series", "financial_year", "last_number")
SELECT 'RCT', fy_start || '-' || lpad(((fy_start::int + 1) % 100)::text, 2, '0'), max(n)
FROM (
    SELECT to_char((paid_at AT TIME ZONE 'Asia/Kolkata') - INTERVAL '3 months', 'YYYY') AS fy_start,
           row_number() OVER (PARTITION BY to_char((paid_at AT TIME ZONE 'Asia/Kolkata') - INTERVAL '3 months', 'YYYY') ORDER BY paid_at, id) AS n
    FROM "payments" WHERE status = 'PAID'
) numbered
GROUP BY fy_start;
