-- The Privacy Policy, the Investor Charter and the MITC are versioned like the terms (issue 28 item 3,
-- docs/decisions/053-document-versions.md): the store records each text the first time it starts
-- with it, and the page's "Last updated" is that record's date. A customer who acknowledged an
-- earlier version is told (banner, e-mail) and acknowledges the new one before the next payment.
CREATE TABLE "document_versions" (
    "version" TEXT NOT NULL,
    "kind" "ConsentDocumentKind" NOT NULL,
    "text_sha256" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "official" BOOLEAN NOT NULL,
    "published_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "document_versions_pkey" PRIMARY KEY ("version"),
    CONSTRAINT "document_versions_kind" CHECK ("kind" IN ('MITC', 'INVESTOR_CHARTER', 'PERSONAL_DATA'))
);

CREATE INDEX "document_versions_kind_published_at_idx" ON "document_versions"("kind", "published_at");

-- The e-mail announcing a version, once per customer and version (claimed before it is queued).
CREATE TABLE "document_notices" (
    "user_id" UUID NOT NULL,
    "version" TEXT NOT NULL,
    "queued_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "document_notices_pkey" PRIMARY KEY ("user_id", "version")
);

ALTER TABLE "document_notices" ADD CONSTRAINT "document_notices_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "document_notices" ADD CONSTRAINT "document_notices_version_fkey" FOREIGN KEY ("version") REFERENCES "document_versions"("version") ON DELETE CASCADE ON UPDATE CASCADE;
