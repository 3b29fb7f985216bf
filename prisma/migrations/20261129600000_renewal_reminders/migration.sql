-- Renewal reminders (docs/payments.md, "Renewals"): the latest stage each subscription was reminded of
-- (0 none, 1 seven days before its end, 2 one day before, 3 at the end). The job claims a stage with a
-- conditional update (reminder_stage < the stage due), so two instances send each reminder once.
ALTER TABLE "subscriptions" ADD COLUMN "reminder_stage" SMALLINT NOT NULL DEFAULT 0;

-- The job's due rows: periods running as sold whose end lies in the window the reminders cover,
-- read in (ends_at, id) order over that window; rows reminded of their end leave the index.
CREATE INDEX "subscriptions_reminder_due_idx" ON "subscriptions" ("ends_at", "id")
  WHERE "ended_at" IS NULL AND "reminder_stage" < 3;
