-- Retention (issue 19 item 6): the job that erases a customer's personal data when the privacy
-- policy's period ends (app/server/retention.server.ts) marks the row erased and gives the phone a
-- placeholder that keeps it unique; last_seen_at tells an account nobody uses any more.
ALTER TABLE "users" ADD COLUMN "erased_at" TIMESTAMPTZ(3);
ALTER TABLE "users" ADD COLUMN "last_seen_at" TIMESTAMPTZ(3);

-- Until now only session rows said when someone last signed in; they are pruned when they expire.
UPDATE "users" u SET "last_seen_at" = GREATEST(
  u."created_at",
  u."updated_at",
  (SELECT max(s."created_at") FROM "sessions" s WHERE s."user_id" = u."id")
);
ALTER TABLE "users" ALTER COLUMN "last_seen_at" SET DEFAULT now();
ALTER TABLE "users" ALTER COLUMN "last_seen_at" SET NOT NULL;

ALTER TABLE "users" DROP CONSTRAINT "users_phone_e164";
ALTER TABLE "users" ADD CONSTRAINT "users_phone_e164" CHECK (
  "phone" ~ '^\+[1-9][0-9]{6,14}$'
  OR ("erased_at" IS NOT NULL AND "phone" = 'erased-' || "id"::text)
);

-- The job's selects: closed accounts not yet erased, by when they closed; unfinished profiles of
-- open accounts, by when they were last seen.
CREATE INDEX "users_retention_closed_idx" ON "users" ("closed_at")
  WHERE "erased_at" IS NULL AND "closed_at" IS NOT NULL;
CREATE INDEX "users_retention_unfinished_idx" ON "users" ("last_seen_at")
  WHERE "erased_at" IS NULL AND "closed_at" IS NULL AND "agreement_accepted_at" IS NULL;
-- Erased accounts, whose acceptances the job deletes once they are 5 years old.
CREATE INDEX "users_erased_idx" ON "users" ("erased_at") WHERE "erased_at" IS NOT NULL;
