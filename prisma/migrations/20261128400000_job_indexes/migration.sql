-- The hourly clean-up deletes by age a batch at a time: each batch finds its rows through an index.
CREATE INDEX "rate_limit_events_created_at_idx" ON "rate_limit_events"("created_at");
CREATE INDEX "otp_challenges_created_at_idx" ON "otp_challenges"("created_at");
CREATE INDEX "sessions_expires_at_idx" ON "sessions"("expires_at");
