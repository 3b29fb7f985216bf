-- A changed text of the terms is a new version that customers must accept (issue 19 item 2). The
-- text stays code; the store records each version the first time it starts with it: the exact
-- text, when it was published and when it takes effect (at least 15 days later, SEBI's Annexure B
-- item 10). Until then the version before it stays in force.
CREATE TABLE "terms_versions" (
    "version" TEXT NOT NULL,
    "text_sha256" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "published_at" TIMESTAMPTZ(3) NOT NULL,
    "effective_from" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "terms_versions_pkey" PRIMARY KEY ("version"),
    CONSTRAINT "terms_versions_notice" CHECK ("effective_from" >= "published_at" + interval '15 days')
);

-- The e-mail announcing a version, once per customer and version: the key is claimed before the
-- e-mail is queued, so two store instances running the job at once send it once.
CREATE TABLE "terms_notices" (
    "user_id" UUID NOT NULL,
    "version" TEXT NOT NULL,
    "queued_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "terms_notices_pkey" PRIMARY KEY ("user_id", "version")
);

ALTER TABLE "terms_notices" ADD CONSTRAINT "terms_notices_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "terms_notices" ADD CONSTRAINT "terms_notices_version_fkey" FOREIGN KEY ("version") REFERENCES "terms_versions"("version") ON DELETE CASCADE ON UPDATE CASCADE;
