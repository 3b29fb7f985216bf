-- Bank transfers: the name on the account the customer pays from, so the team can match the
-- transfer on the bank statement (and the invoice records who paid).
ALTER TABLE "payments" ADD COLUMN "payer_account_name" TEXT;
