-- The compliance officer's reminders that last month's complaint data is unpublished: one row per
-- month and day (the 1st, the 5th), claimed before the e-mail is queued.
CREATE TABLE "complaint_board_reminders" (
    "month" DATE NOT NULL,
    "day" SMALLINT NOT NULL,
    "sent_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "complaint_board_reminders_pkey" PRIMARY KEY ("month", "day"),
    CONSTRAINT "complaint_board_reminders_day" CHECK ("day" IN (1, 5))
);
