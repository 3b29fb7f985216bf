CREATE TYPE "PaymentMethod" AS ENUM ('GATEWAY', 'MANUAL');

CREATE TYPE "PaymentStatus" AS ENUM ('CREATED', 'PAID', 'FAILED', 'CANCELLED', 'PENDING_VERIFICATION', 'REJECTED', 'EXPIRED');

CREATE TABLE "payments" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "method" "PaymentMethod" NOT NULL,
    "status" "PaymentStatus" NOT NULL,
    "amount_paise" INTEGER NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'INR',
    "cart" JSONB NOT NULL,
    "gateway_order_id" TEXT,
    "gateway_payment_id" TEXT,
    "failure_reason" TEXT,
    "utr" TEXT,
    "idempotency_key" TEXT,
    "paid_via" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "paid_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3),
    "rejected_reason" TEXT,

    CONSTRAINT "payments_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "payments_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "payments_amount_paise_positive" CHECK ("amount_paise" > 0),
    CONSTRAINT "payments_cart_is_array" CHECK (jsonb_typeof("cart") = 'array'),
    CONSTRAINT "payments_paid_has_paid_at" CHECK (("status" = 'PAID') = ("paid_at" IS NOT NULL)),
    CONSTRAINT "payments_manual_expires" CHECK ("method" <> 'MANUAL' OR "expires_at" IS NOT NULL)
);

CREATE UNIQUE INDEX "payments_gateway_order_id_key" ON "payments"("gateway_order_id");
CREATE UNIQUE INDEX "payments_gateway_payment_id_key" ON "payments"("gateway_payment_id");
CREATE UNIQUE INDEX "payments_user_id_idempotency_key_key" ON "payments"("user_id", "idempotency_key");
CREATE INDEX "payments_user_id_status_idx" ON "payments"("user_id", "status");
CREATE INDEX "payments_status_created_at_idx" ON "payments"("status", "created_at");

CREATE TABLE "subscriptions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "service_id" UUID NOT NULL,
    "payment_id" UUID NOT NULL,
    "starts_at" TIMESTAMPTZ(3) NOT NULL,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscriptions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "subscriptions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "subscriptions_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "services"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "subscriptions_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "subscriptions_ends_after_start" CHECK ("ends_at" > "starts_at")
);

CREATE UNIQUE INDEX "subscriptions_payment_id_service_id_key" ON "subscriptions"("payment_id", "service_id");
CREATE INDEX "subscriptions_user_id_service_id_ends_at_idx" ON "subscriptions"("user_id", "service_id", "ends_at");

CREATE TABLE "webhook_events" (
    "event_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "payload" JSONB NOT NULL,

    CONSTRAINT "webhook_events_pkey" PRIMARY KEY ("event_id")
);
