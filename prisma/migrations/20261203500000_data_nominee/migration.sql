-- The person a customer names to exercise their data rights if they die or cannot (DPDP Act 2023,
-- section 14; the privacy policy's "Your rights"): one per customer, replaced or removed on
-- /account/nominee, each change audited. Personal data of a third person: the retention job erases
-- it with the account's own.

CREATE TABLE "data_nominees" (
  "user_id" UUID NOT NULL PRIMARY KEY REFERENCES "users"("id") ON DELETE CASCADE,
  "name" TEXT NOT NULL,
  "relationship" TEXT NOT NULL,
  "phone" TEXT,
  "email" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CONSTRAINT "data_nominees_reachable" CHECK ("phone" IS NOT NULL OR "email" IS NOT NULL)
);
