-- CreateEnum
CREATE TYPE "complaint_source" AS ENUM ('DIRECTLY_FROM_INVESTORS', 'SEBI_SCORES', 'OTHER_SOURCES');

-- CreateTable
CREATE TABLE "complaint_board_months" (
    "month" DATE NOT NULL,
    "impersonation_complaints" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "complaint_board_months_pkey" PRIMARY KEY ("month"),
    CONSTRAINT "complaint_board_months_first_day" CHECK (EXTRACT(DAY FROM "month") = 1),
    CONSTRAINT "complaint_board_months_impersonation_complaints_not_negative" CHECK ("impersonation_complaints" >= 0)
);

-- CreateTable
CREATE TABLE "complaint_figures" (
    "month" DATE NOT NULL,
    "source" "complaint_source" NOT NULL,
    "received" INTEGER NOT NULL DEFAULT 0,
    "resolved" INTEGER NOT NULL DEFAULT 0,
    "pending_over_three_months" INTEGER NOT NULL DEFAULT 0,
    "resolution_days_total" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "complaint_figures_pkey" PRIMARY KEY ("month","source"),
    CONSTRAINT "complaint_figures_counts_not_negative" CHECK (
        "received" >= 0 AND "resolved" >= 0 AND "pending_over_three_months" >= 0 AND "resolution_days_total" >= 0
    )
);

-- AddForeignKey
ALTER TABLE "complaint_figures" ADD CONSTRAINT "complaint_figures_month_fkey" FOREIGN KEY ("month") REFERENCES "complaint_board_months"("month") ON DELETE CASCADE ON UPDATE CASCADE;
