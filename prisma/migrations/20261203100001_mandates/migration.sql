-- A customer's standing authorisation to charge a service's renewal through Razorpay Subscriptions
-- (docs/payments.md, "Renewals and mandates"). One live mandate (CREATED, ACTIVE or HALTED) per
-- customer and service; each charge is a payment pointing at its mandate.
CREATE TABLE "mandates" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "user_id" UUID NOT NULL,
  "service_id" UUID NOT NULL,
  "gateway_plan_id" TEXT NOT NULL,
  "gateway_subscription_id" TEXT NOT NULL,
  "amount_paise" INTEGER NOT NULL,
  "period_days" INTEGER NOT NULL,
  "max_amount_paise" INTEGER NOT NULL,
  "state" "MandateState" NOT NULL,
  "acceptance_id" UUID NOT NULL,
  "first_charge_at" TIMESTAMPTZ(3) NOT NULL,
  "next_charge_at" TIMESTAMPTZ(3),
  "notice_sent_for" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "authorised_at" TIMESTAMPTZ(3),
  "cancelled_at" TIMESTAMPTZ(3),
  "cancel_reason" TEXT,
  "cancelled_by" UUID,
  CONSTRAINT "mandates_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "mandates_amount_positive" CHECK ("amount_paise" > 0 AND "max_amount_paise" >= "amount_paise"),
  CONSTRAINT "mandates_period_positive" CHECK ("period_days" > 0),
  CONSTRAINT "mandates_cancelled_when" CHECK (("state" = 'CANCELLED') = ("cancelled_at" IS NOT NULL))
);
CREATE UNIQUE INDEX "mandates_gateway_subscription_id_key" ON "mandates" ("gateway_subscription_id");
CREATE INDEX "mandates_user_id_service_id_idx" ON "mandates" ("user_id", "service_id");
-- At most one live mandate per customer and service.
CREATE UNIQUE INDEX "mandates_one_live_key" ON "mandates" ("user_id", "service_id")
  WHERE "state" IN ('CREATED', 'ACTIVE', 'HALTED');
-- The pre-debit notice job finds the charges coming up by this index.
CREATE INDEX "mandates_notice_due_idx" ON "mandates" ("next_charge_at", "id") WHERE "state" = 'ACTIVE';
ALTER TABLE "mandates" ADD CONSTRAINT "mandates_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "mandates" ADD CONSTRAINT "mandates_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "services"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
-- acceptance_id names the consent's row in acceptances without a foreign key: that table is
-- append-only with its own retention (a key would block its purge and its TRUNCATE guard's message).

ALTER TABLE "payments" ADD COLUMN "mandate_id" UUID;
ALTER TABLE "payments" ADD CONSTRAINT "payments_mandate_id_fkey" FOREIGN KEY ("mandate_id") REFERENCES "mandates"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
CREATE INDEX "payments_mandate_id_idx" ON "payments" ("mandate_id");

-- A whole-payment refund is for a closed account or a mandate charge that could not be applied.
ALTER TABLE "refunds" DROP CONSTRAINT "refunds_whole_payment_reason";
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_whole_payment_reason"
  CHECK (("kind" = 'WHOLE_PAYMENT') = ("reason" IN ('ACCOUNT_CLOSED', 'MANDATE_CHARGE_REFUSED')));
