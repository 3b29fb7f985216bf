-- KYC through a KRA (app/server/kyc.server.ts): the last answer for the customer's PAN and date of
-- birth, and the correction requests through which a complete profile's name, PAN and date of
-- birth change (approved by an admin, audited).
CREATE TYPE "KycStatus" AS ENUM ('VALIDATED', 'REGISTERED', 'ON_HOLD', 'NOT_FOUND');
CREATE TYPE "CorrectionStatus" AS ENUM ('PENDING', 'APPROVED', 'REJECTED');

ALTER TABLE "users"
  ADD COLUMN "kyc_status" "KycStatus",
  ADD COLUMN "kyc_checked_at" TIMESTAMPTZ(3),
  ADD COLUMN "kyc_reference" TEXT,
  ADD COLUMN "kyc_name_on_record" TEXT;

CREATE TABLE "correction_requests" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "user_id" UUID NOT NULL,
  "old_values" JSONB NOT NULL,
  "new_values" JSONB NOT NULL,
  "reason" TEXT NOT NULL,
  "status" "CorrectionStatus" NOT NULL DEFAULT 'PENDING',
  "decided_by" UUID,
  "decided_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "correction_requests_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "correction_requests_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "correction_requests_user_id_created_at_idx" ON "correction_requests"("user_id", "created_at");
