-- Issue 19 item 6: a customer closes their account. The row stays (SEBI's 5-year records refer to
-- it); closed_at marks it closed: no session of it works and it cannot sign in again.
ALTER TABLE "users" ADD COLUMN "closed_at" TIMESTAMPTZ(3);
