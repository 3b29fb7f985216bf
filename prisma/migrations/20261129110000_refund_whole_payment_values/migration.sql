-- A capture that arrives for a closed account is refunded in full, with no subscription
-- (docs/payments.md, "Closing an account and late money"). The new enum values come in a migration
-- of their own: Postgres does not let a value added in a transaction be used in it.
ALTER TYPE "RefundKind" ADD VALUE 'WHOLE_PAYMENT';
ALTER TYPE "RefundReason" ADD VALUE 'ACCOUNT_CLOSED';
