-- The KRA's record must match (docs/regulatory.md, "KYC through a KRA"; decision 047): the date of
-- birth the KRA holds for the PAN, beside the name it holds, and the admin's decision on a record
-- that differs from the profile, with the values it was made on (a change of either asks again).

CREATE TYPE "KraRecordReview" AS ENUM ('ACCEPTED', 'CORRECTION_ASKED');

ALTER TABLE "users"
  ADD COLUMN "kyc_dob_on_record" DATE,
  ADD COLUMN "kyc_record_review" "KraRecordReview",
  ADD COLUMN "kyc_record_reviewed_at" TIMESTAMPTZ(3),
  ADD COLUMN "kyc_record_reviewed_for" JSONB;
