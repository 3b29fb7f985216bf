-- A whole-payment refund is for a closed account, a mandate charge that could not be applied, or a
-- capture by a refused gateway method.
ALTER TABLE "refunds" DROP CONSTRAINT "refunds_whole_payment_reason";
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_whole_payment_reason"
  CHECK (("kind" = 'WHOLE_PAYMENT') = ("reason" IN ('ACCOUNT_CLOSED', 'MANDATE_CHARGE_REFUSED', 'GATEWAY_METHOD_REFUSED')));
