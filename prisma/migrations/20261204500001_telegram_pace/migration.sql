-- Telegram's limits are the bot's, not an instance's (30 messages a second in all, one a second per
-- chat): the next free send time is kept here, shared by every instance sending research
-- (app/server/research/telegram-pace.server.ts). Epoch milliseconds, fractional (1000 / 30).
CREATE TABLE telegram_pace (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  next_at_ms double precision NOT NULL
);
INSERT INTO telegram_pace (singleton, next_at_ms) VALUES (true, 0);

ALTER TABLE research_channel_choices ADD COLUMN telegram_free_at_ms double precision;
