-- A subscription comes from a payment, or is granted by an admin (complimentary or corrective)
-- with a reason; never both, never neither. granted_by has no foreign key, like audit_logs.actor_id:
-- the record must outlive the admin's account.
ALTER TABLE "subscriptions" ALTER COLUMN "payment_id" DROP NOT NULL;
ALTER TABLE "subscriptions" ADD COLUMN "grant_reason" TEXT;
ALTER TABLE "subscriptions" ADD COLUMN "granted_by" UUID;
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_paid_or_granted"
    CHECK (("payment_id" IS NULL) = ("grant_reason" IS NOT NULL AND "granted_by" IS NOT NULL));
