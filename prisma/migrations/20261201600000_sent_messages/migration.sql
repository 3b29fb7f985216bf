-- The archive of every message the store sent (docs/regulatory.md, "Records"): e-mail, SMS and
-- Telegram, with recipient, time, template and body (a sign-in code masked). Kept 5 years by the
-- retention job, and erased with an erased account; no foreign key, like audit_logs, so a row
-- names its customer without holding the account back.

CREATE TABLE "sent_messages" (
  "id" BIGSERIAL NOT NULL,
  "user_id" UUID,
  "channel" TEXT NOT NULL,
  "recipient" TEXT NOT NULL,
  "template" TEXT NOT NULL,
  "subject" TEXT,
  "body" TEXT NOT NULL,
  "provider_message_id" TEXT,
  "sent_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "sent_messages_pkey" PRIMARY KEY ("id")
);
-- A customer's messages newest first (the admin's customer page, the data download, erasure).
CREATE INDEX "sent_messages_user_id_sent_at_idx" ON "sent_messages" ("user_id", "sent_at");
-- The retention job's messages older than 5 years.
CREATE INDEX "sent_messages_sent_at_idx" ON "sent_messages" ("sent_at");
