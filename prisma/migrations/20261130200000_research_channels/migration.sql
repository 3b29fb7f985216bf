-- Research channels (docs/research.md, "Channels"): SMS and Telegram beside e-mail, each customer's
-- choice of them, and the Telegram link (a chat id, and the one-time deep-link tokens that make it).

ALTER TYPE "ResearchChannel" ADD VALUE 'SMS';
ALTER TYPE "ResearchChannel" ADD VALUE 'TELEGRAM';

-- No row: the defaults (e-mail on when there is an address, SMS off, Telegram off until linked).
CREATE TABLE "research_channel_choices" (
  "user_id" UUID NOT NULL,
  "email" BOOLEAN NOT NULL DEFAULT true,
  "sms" BOOLEAN NOT NULL DEFAULT false,
  "telegram" BOOLEAN NOT NULL DEFAULT false,
  -- Telegram's chat id with the bot, set by "/start <token>", cleared by /stop, unlinking or a block.
  "telegram_chat_id" TEXT,
  "telegram_linked_at" TIMESTAMPTZ(3),
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "research_channel_choices_pkey" PRIMARY KEY ("user_id"),
  CONSTRAINT "research_channel_choices_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "research_channel_choices_chat_id" CHECK ("telegram_chat_id" IS NULL OR "telegram_chat_id" ~ '^-?[0-9]{1,20}$'),
  -- Telegram is chosen only while linked.
  CONSTRAINT "research_channel_choices_telegram_linked" CHECK (NOT "telegram" OR "telegram_chat_id" IS NOT NULL)
);
-- One customer per chat: "/start" with a second account's token moves the link.
CREATE UNIQUE INDEX "research_channel_choices_telegram_chat_id_key" ON "research_channel_choices" ("telegram_chat_id");

-- A deep link's token (t.me/<bot>?start=<token>), stored as its SHA-256: single use, expiring.
CREATE TABLE "telegram_link_tokens" (
  "token_sha256" TEXT NOT NULL,
  "user_id" UUID NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL,
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  "used_at" TIMESTAMPTZ(3),
  CONSTRAINT "telegram_link_tokens_pkey" PRIMARY KEY ("token_sha256"),
  CONSTRAINT "telegram_link_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "telegram_link_tokens_user_id_idx" ON "telegram_link_tokens" ("user_id");
CREATE INDEX "telegram_link_tokens_expires_at_idx" ON "telegram_link_tokens" ("expires_at");

-- The webhook's update ids already handled: Telegram re-sends an update until answered 200.
CREATE TABLE "telegram_updates" (
  "update_id" BIGINT NOT NULL,
  "received_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "telegram_updates_pkey" PRIMARY KEY ("update_id")
);
CREATE INDEX "telegram_updates_received_at_idx" ON "telegram_updates" ("received_at");
