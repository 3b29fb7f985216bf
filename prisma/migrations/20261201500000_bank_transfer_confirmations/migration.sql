-- Bank transfers an inspector can follow (docs/payments.md, "Confirming a bank transfer"): what the
-- admin read on the bank statement when confirming a manual claim (its UTR and the payer's account
-- name), whether that name matches the customer's KYC name, and the written reason for accepting a
-- mismatch. The customer's own `utr` and `payer_account_name` stay as their claim.

CREATE TYPE "PayerNameCheck" AS ENUM ('MATCH', 'MISMATCH');

ALTER TABLE "payments"
  ADD COLUMN "bank_utr" TEXT,
  ADD COLUMN "bank_payer_name" TEXT,
  ADD COLUMN "payer_name_check" "PayerNameCheck",
  ADD COLUMN "payer_name_mismatch_reason" TEXT,
  -- A mismatch is only ever accepted with its reason.
  ADD CONSTRAINT "payments_payer_name_mismatch_reason" CHECK (
    "payer_name_check" IS DISTINCT FROM 'MISMATCH' OR "payer_name_mismatch_reason" IS NOT NULL
  );
