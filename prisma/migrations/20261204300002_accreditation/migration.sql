-- An accredited investor's exemption from the fee cap records the accreditation certificate's number
-- and its last valid day (the cap applies again after it), and the customer's own opt-in: the
-- acceptances row (kind ACCREDITED_INVESTOR_OPT_IN) for that certificate, without a foreign key
-- (that table is append-only with its own retention, as mandates.acceptance_id).
ALTER TABLE "users" ADD COLUMN "accreditation_certificate" TEXT;
ALTER TABLE "users" ADD COLUMN "accreditation_valid_until" DATE;
ALTER TABLE "users" ADD COLUMN "accreditation_opt_in_id" UUID;
ALTER TABLE "users" ADD CONSTRAINT "users_accreditation_whole"
  CHECK (("accreditation_certificate" IS NULL) = ("accreditation_valid_until" IS NULL));
ALTER TABLE "users" ADD CONSTRAINT "users_accreditation_only_for_accredited"
  CHECK ("accreditation_certificate" IS NULL OR "fee_cap_exemption" = 'ACCREDITED_INVESTOR');
ALTER TABLE "users" ADD CONSTRAINT "users_accreditation_opt_in_needs_certificate"
  CHECK ("accreditation_opt_in_id" IS NULL OR "accreditation_certificate" IS NOT NULL);
