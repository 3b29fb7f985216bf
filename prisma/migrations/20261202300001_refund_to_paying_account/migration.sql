-- A refund of a bank transfer goes to the account it came from (docs/payments.md, "Refunds"): the
-- UTR of the transfer whose paying account the refund is paid to, as the admin read it on the bank
-- statement when confirming the claim (payments.bank_utr); the account's name is in payee_account_name.

ALTER TABLE "refunds" ADD COLUMN "payee_paid_with_utr" TEXT;
