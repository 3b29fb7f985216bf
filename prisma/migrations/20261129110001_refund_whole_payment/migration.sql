-- A whole-payment refund (kind WHOLE_PAYMENT, reason ACCOUNT_CLOSED) gives back a payment that made
-- no subscription; every other refund is of one subscription. At most one per payment.
ALTER TABLE "refunds" ALTER COLUMN "subscription_id" DROP NOT NULL;
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_whole_payment_has_no_subscription"
  CHECK (("kind" = 'WHOLE_PAYMENT') = ("subscription_id" IS NULL));
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_whole_payment_reason"
  CHECK (("kind" = 'WHOLE_PAYMENT') = ("reason" = 'ACCOUNT_CLOSED'));
CREATE UNIQUE INDEX "refunds_whole_payment_key" ON "refunds" ("payment_id") WHERE "kind" = 'WHOLE_PAYMENT';
