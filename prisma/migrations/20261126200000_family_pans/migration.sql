-- SEBI's fee cap counts a family's payments together (docs/regulatory.md): one PAN, one account,
-- and each customer may name the PANs of their dependent spouse, children and parents.

-- The app stores a PAN trimmed and upper-case (app/domain/profile.ts); hold every row to that, so
-- the plain unique index below is also unique regardless of case.
UPDATE "users" SET "pan" = upper(btrim("pan")) WHERE "pan" IS NOT NULL AND "pan" <> upper(btrim("pan"));

-- Before this rule two accounts could hold one PAN. The account that has it longest keeps it; the
-- others lose it and go back to step 1 of /details, where saving it again names the account that has it.
DO $$
DECLARE cleared integer;
BEGIN
  UPDATE "users" SET "pan" = NULL
  WHERE "id" IN (
    SELECT "id" FROM (
      SELECT "id", row_number() OVER (PARTITION BY "pan" ORDER BY "created_at", "id") AS "rank"
      FROM "users" WHERE "pan" IS NOT NULL
    ) AS "ranked" WHERE "rank" > 1
  );
  GET DIAGNOSTICS cleared = ROW_COUNT;
  IF cleared > 0 THEN
    RAISE NOTICE 'family_pans: cleared the PAN of % account(s) whose PAN an older account holds', cleared;
  END IF;
END $$;

ALTER TABLE "users" ADD CONSTRAINT "users_pan_upper_case" CHECK ("pan" = upper(btrim("pan")));
CREATE UNIQUE INDEX "users_pan_key" ON "users"("pan");

-- Accredited investors and non-individual clients are outside the fee cap; an admin marks them,
-- with a reason (audited).
CREATE TYPE "FeeCapExemption" AS ENUM ('ACCREDITED_INVESTOR', 'NON_INDIVIDUAL');
ALTER TABLE "users" ADD COLUMN "fee_cap_exemption" "FeeCapExemption";
ALTER TABLE "users" ADD COLUMN "fee_cap_exemption_reason" TEXT;
ALTER TABLE "users" ADD CONSTRAINT "users_fee_cap_exemption_reason"
    CHECK (("fee_cap_exemption" IS NULL) = ("fee_cap_exemption_reason" IS NULL));

CREATE TYPE "FamilyRelation" AS ENUM ('SPOUSE', 'CHILD', 'PARENT');

-- The PANs a customer declared as their family's. The PAN need not belong to an account here.
CREATE TABLE "family_members" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "pan" TEXT NOT NULL,
    "relation" "FamilyRelation" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "family_members_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "family_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "family_members_pan_format" CHECK ("pan" ~ '^[A-Z]{5}[0-9]{4}[A-Z]$')
);

CREATE UNIQUE INDEX "family_members_user_id_pan_key" ON "family_members"("user_id", "pan");
-- familyUserIds looks the other way too: who declared this PAN.
CREATE INDEX "family_members_pan_idx" ON "family_members"("pan");
