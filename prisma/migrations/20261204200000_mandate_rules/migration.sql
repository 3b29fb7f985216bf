-- The rules around a mandate's charges (docs/payments.md, "Renewals and mandates"; decision 055).
-- The charge whose failure the customer was told of (subscription.pending or .halted), claimed once
-- across webhook deliveries and instances: the mandate's next_charge_at when it failed.
ALTER TABLE "mandates" ADD COLUMN "charge_failure_noticed_for" TIMESTAMPTZ(3);
-- Set when a change of the service's price or period ended the mandate: the amount the customer is
-- asked to authorise anew (a new mandate). Only on a cancelled mandate.
ALTER TABLE "mandates" ADD COLUMN "reauthorisation_amount_paise" INTEGER;
ALTER TABLE "mandates" ADD CONSTRAINT "mandates_reauthorisation_when_cancelled"
  CHECK ("reauthorisation_amount_paise" IS NULL OR ("state" = 'CANCELLED' AND "reauthorisation_amount_paise" > 0));
