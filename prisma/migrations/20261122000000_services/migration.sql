CREATE TABLE "services" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "description" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "price_paise" INTEGER NOT NULL,
    "duration_days" INTEGER NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "sort_order" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "services_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "services_price_paise_positive" CHECK ("price_paise" > 0),
    CONSTRAINT "services_duration_days_positive" CHECK ("duration_days" > 0)
);

CREATE UNIQUE INDEX "services_name_key" ON "services"("name");
