-- Refunds (docs/payments.md, "Refunds"): ending a subscription gives back its unexpired part; an
-- over-limit capture gives back its excess. Each refund has one negative ledger row, written in the
-- same transaction; the money then moves through the gateway (PENDING -> PROCESSED or FAILED) or
-- as a bank transfer the admin makes (DUE -> PROCESSED with its bank reference).
CREATE TYPE "RefundReason" AS ENUM ('CUSTOMER_ENDED', 'ADMIN_ENDED', 'SERVICES_STOPPED', 'ADVANCE_LIMIT');
CREATE TYPE "RefundStatus" AS ENUM ('DUE', 'PENDING', 'PROCESSED', 'FAILED');
-- ENDING: the subscription was ended (at most one per subscription); EXCESS: the days bought beyond the advance limit.
CREATE TYPE "RefundKind" AS ENUM ('ENDING', 'EXCESS');

CREATE TABLE "refunds" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "payment_id" UUID NOT NULL,
    "subscription_id" UUID NOT NULL,
    "kind" "RefundKind" NOT NULL,
    "reason" "RefundReason" NOT NULL,
    "amount_paise" INTEGER NOT NULL,
    "status" "RefundStatus" NOT NULL,
    "note" TEXT,
    "actor_id" UUID,
    "payee_account_name" TEXT,
    "payee_account_number" TEXT,
    "payee_ifsc" TEXT,
    "gateway_refund_id" TEXT,
    "bank_reference" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processed_at" TIMESTAMPTZ(3),

    CONSTRAINT "refunds_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "refunds_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "refunds_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "refunds_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "refunds_amount_positive" CHECK ("amount_paise" > 0),
    CONSTRAINT "refunds_kind_matches_reason" CHECK (("kind" = 'EXCESS') = ("reason" = 'ADVANCE_LIMIT')),
    CONSTRAINT "refunds_processed" CHECK (("status" = 'PROCESSED') = ("processed_at" IS NOT NULL))
);

-- An end request sent twice makes one refund.
CREATE UNIQUE INDEX "refunds_subscription_id_kind_key" ON "refunds"("subscription_id", "kind");
CREATE UNIQUE INDEX "refunds_gateway_refund_id_key" ON "refunds"("gateway_refund_id");
CREATE INDEX "refunds_status_created_at_idx" ON "refunds"("status", "created_at");
CREATE INDEX "refunds_user_id_idx" ON "refunds"("user_id");
CREATE INDEX "refunds_payment_id_idx" ON "refunds"("payment_id");

ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_refund_id_fkey"
    FOREIGN KEY ("refund_id") REFERENCES "refunds"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- An ended (or shortened) subscription keeps what it was sold as: ends_at becomes the moment it
-- ended (so every reader of ends_at sees it over), original_ends_at the end it was sold with,
-- ended_at when that happened. A period that never started and was ended keeps its starts_at: its
-- ends_at is then at or before it (nothing was served), which only an ended period may be.
ALTER TABLE "subscriptions" ADD COLUMN "ended_at" TIMESTAMPTZ(3);
ALTER TABLE "subscriptions" ADD COLUMN "original_ends_at" TIMESTAMPTZ(3);
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_ended" CHECK (("ended_at" IS NULL) = ("original_ends_at" IS NULL));
ALTER TABLE "subscriptions" DROP CONSTRAINT "subscriptions_ends_after_start";
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_ends_after_start" CHECK ("ends_at" > "starts_at" OR "ended_at" IS NOT NULL);
