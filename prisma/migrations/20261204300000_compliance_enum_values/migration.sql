-- Issue 28's last rows. The new enum values come in a migration of their own: Postgres does not let
-- a value added in a transaction be used in it.
-- A checkout's capture by a method the store does not take (wallet, EMI, pay later, ...) is refunded
-- in full (docs/payments.md, "Gateway payment methods").
ALTER TYPE "RefundReason" ADD VALUE 'GATEWAY_METHOD_REFUSED';
-- An accredited investor's own opt-in to be outside the fee cap (docs/regulatory.md, fee cap).
ALTER TYPE "ConsentDocumentKind" ADD VALUE 'ACCREDITED_INVESTOR_OPT_IN';
