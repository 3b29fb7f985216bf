-- Automatic renewal by a Razorpay Subscriptions mandate (docs/payments.md, "Renewals and mandates").
-- The new enum values come in a migration of their own: Postgres does not let a value added in a
-- transaction be used in it.
CREATE TYPE "MandateState" AS ENUM ('CREATED', 'ACTIVE', 'HALTED', 'CANCELLED');
ALTER TYPE "RefundReason" ADD VALUE 'MANDATE_CHARGE_REFUSED';
ALTER TYPE "ConsentDocumentKind" ADD VALUE 'AUTOPAY_MANDATE';
