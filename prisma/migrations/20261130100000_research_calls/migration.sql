-- Calls and follow-ups (docs/research.md): a call's instrument, action, prices and horizon; a
-- follow-up (correction, withdrawal, a call's revision or outcome) names its original.

ALTER TYPE "ResearchKind" ADD VALUE 'CALL';
ALTER TYPE "ResearchKind" ADD VALUE 'FOLLOW_UP';

CREATE TYPE "ResearchExchange" AS ENUM ('NSE', 'BSE');
CREATE TYPE "ResearchCallAction" AS ENUM ('BUY', 'SELL', 'HOLD', 'EXIT');
CREATE TYPE "ResearchFollowUpKind" AS ENUM (
  'CORRECTION', 'WITHDRAWAL', 'TARGET_REVISED', 'STOP_LOSS_REVISED', 'TARGET_HIT', 'STOP_LOSS_HIT', 'CLOSED'
);

ALTER TABLE "research_items"
  ADD COLUMN "exchange" "ResearchExchange",
  ADD COLUMN "symbol" TEXT,
  ADD COLUMN "isin" TEXT,
  ADD COLUMN "call_action" "ResearchCallAction",
  ADD COLUMN "entry_low_paise" INTEGER,
  ADD COLUMN "entry_high_paise" INTEGER,
  ADD COLUMN "targets_paise" INTEGER[] NOT NULL DEFAULT ARRAY[]::INTEGER[],
  ADD COLUMN "stop_loss_paise" INTEGER,
  ADD COLUMN "horizon" TEXT,
  ADD COLUMN "original_id" UUID,
  ADD COLUMN "follow_up_kind" "ResearchFollowUpKind",
  ADD COLUMN "price_paise" INTEGER,
  ADD CONSTRAINT "research_items_original_id_fkey" FOREIGN KEY ("original_id") REFERENCES "research_items"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  -- A follow-up, and only a follow-up, names its original and says what it is.
  ADD CONSTRAINT "research_items_follow_up_names_original" CHECK (
    ("original_id" IS NULL) = ("follow_up_kind" IS NULL) AND ("original_id" IS NULL OR "original_id" <> "id")
  ),
  -- Prices are positive paise.
  ADD CONSTRAINT "research_items_prices_positive" CHECK (
    coalesce("entry_low_paise", 1) > 0 AND coalesce("entry_high_paise", 1) > 0
    AND coalesce("stop_loss_paise", 1) > 0 AND coalesce("price_paise", 1) > 0
    AND 0 < ALL ("targets_paise")
  );

-- The item page's notices: an original's follow-ups in order.
CREATE INDEX "research_items_original_id_created_at_idx" ON "research_items" ("original_id", "created_at");
