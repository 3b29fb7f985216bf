-- The complaint board from the register (issue 20, item 3): a published month records whether its
-- figures were entered by hand (months before the register) or computed from the register and
-- frozen, and when it was published (late after the 7th of the next month).
CREATE TYPE "complaint_board_origin" AS ENUM ('HAND', 'REGISTER');

ALTER TABLE "complaint_board_months"
  ADD COLUMN "origin" "complaint_board_origin" NOT NULL DEFAULT 'HAND',
  ADD COLUMN "published_at" TIMESTAMPTZ(3);

-- Months published before this migration: their first publication is when the row was made.
UPDATE "complaint_board_months" SET "published_at" = "created_at";
ALTER TABLE "complaint_board_months" ALTER COLUMN "published_at" SET NOT NULL,
  ALTER COLUMN "published_at" SET DEFAULT CURRENT_TIMESTAMP;

-- A month's figures read the complaints received before its end and not resolved before its start.
CREATE INDEX "complaints_received_at_idx" ON "complaints"("received_at");
CREATE INDEX "complaints_resolved_at_idx" ON "complaints"("resolved_at");
