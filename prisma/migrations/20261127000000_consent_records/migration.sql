-- Acceptances are records, not columns (issue 19 item 1): every acknowledgement of a document (the
-- terms, the MITC, the consent statement, the investor charter, the consent to processing personal
-- data) is a row of its own, with the version and the SHA-256 of the exact text, when, from where and
-- through which channel. SEBI requires the record of the client's consent for at least 5 years.
CREATE TYPE "ConsentDocumentKind" AS ENUM ('TERMS', 'MITC', 'CONSENT_STATEMENT', 'INVESTOR_CHARTER', 'PERSONAL_DATA');
CREATE TYPE "AcceptanceChannel" AS ENUM ('PAGE', 'API');

CREATE TABLE "acceptances" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "kind" "ConsentDocumentKind" NOT NULL,
    "version" TEXT NOT NULL,
    "text_sha256" TEXT NOT NULL,
    "accepted_at" TIMESTAMPTZ(3) NOT NULL,
    "ip" TEXT,
    "user_agent" TEXT,
    -- Null only for the rows backfilled below from the users columns, which did not record it.
    "channel" "AcceptanceChannel",
    CONSTRAINT "acceptances_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "acceptances_user_id_accepted_at_idx" ON "acceptances"("user_id", "accepted_at");

-- RESTRICT: a customer with acceptance records cannot be deleted while the records must be kept.
ALTER TABLE "acceptances" ADD CONSTRAINT "acceptances_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Append-only, guarded by the database: no UPDATE ever, no TRUNCATE, and a DELETE only of a record
-- older than 5 years (what a retention job may erase once the law no longer requires it).
CREATE FUNCTION "acceptances_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND OLD."accepted_at" < now() - interval '5 years' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'acceptances are append-only records kept for 5 years: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER "acceptances_no_update_or_early_delete" BEFORE UPDATE OR DELETE ON "acceptances"
  FOR EACH ROW EXECUTE FUNCTION "acceptances_append_only"();
CREATE TRIGGER "acceptances_no_truncate" BEFORE TRUNCATE ON "acceptances"
  FOR EACH STATEMENT EXECUTE FUNCTION "acceptances_append_only"();

-- Backfill: the one acceptance each user row recorded (of the whole terms, which contained the MITC
-- and the consent statement). The channel was not recorded, nor always the version or hash.
INSERT INTO "acceptances" ("user_id", "kind", "version", "text_sha256", "accepted_at", "ip", "user_agent", "channel")
SELECT "id", 'TERMS', COALESCE("agreement_version", 'unrecorded'), COALESCE("agreement_text_sha256", 'unrecorded'),
       "agreement_accepted_at", "agreement_ip", NULL, NULL
  FROM "users" WHERE "agreement_accepted_at" IS NOT NULL;
