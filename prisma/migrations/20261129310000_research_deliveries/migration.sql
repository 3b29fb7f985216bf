-- The research delivery log (docs/research.md): one row per recipient and channel, written with the
-- roll; the rows are the queue the research-deliveries job takes in batches (FOR UPDATE SKIP LOCKED).

CREATE TYPE "ResearchChannel" AS ENUM ('EMAIL');
CREATE TYPE "ResearchDeliveryStatus" AS ENUM ('QUEUED', 'SENT', 'FAILED');

CREATE TABLE "research_deliveries" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "item_id" UUID NOT NULL,
  "user_id" UUID NOT NULL,
  "channel" "ResearchChannel" NOT NULL,
  "status" "ResearchDeliveryStatus" NOT NULL DEFAULT 'QUEUED',
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "queued_at" TIMESTAMPTZ(3) NOT NULL,
  "next_attempt_at" TIMESTAMPTZ(3) NOT NULL,
  "sent_at" TIMESTAMPTZ(3),
  "failed_at" TIMESTAMPTZ(3),
  "provider_message_id" TEXT,
  "last_error" TEXT,
  CONSTRAINT "research_deliveries_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "research_deliveries_roll_fkey" FOREIGN KEY ("item_id", "user_id") REFERENCES "research_roll"("item_id", "user_id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "research_deliveries_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  -- A sent row says when; a failed row says when and why.
  CONSTRAINT "research_deliveries_states" CHECK (
    ("status" <> 'SENT' OR "sent_at" IS NOT NULL)
    AND ("status" <> 'FAILED' OR ("failed_at" IS NOT NULL AND "last_error" IS NOT NULL))
  )
);
CREATE UNIQUE INDEX "research_deliveries_item_id_user_id_channel_key" ON "research_deliveries" ("item_id", "user_id", "channel");
-- The worker's batch: queued rows whose attempt is due.
CREATE INDEX "research_deliveries_due_idx" ON "research_deliveries" ("next_attempt_at") WHERE "status" = 'QUEUED';
-- "Your data": a customer's deliveries.
CREATE INDEX "research_deliveries_user_id_queued_at_idx" ON "research_deliveries" ("user_id", "queued_at");
