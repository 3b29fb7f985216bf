-- PANs at rest (docs/architecture.md, "PANs at rest"): each PAN column becomes pan_encrypted
-- (AES-256-GCM text written by the app) with an HMAC-SHA-256 lookup hash beside it, which now
-- carries the uniqueness the plaintext column had.
--
-- SQL cannot encrypt with the app's key: this migration only moves each plaintext PAN into
-- pan_encrypted with a NULL hash. The data step that follows every migration run
-- (encryptPlaintextPans in app/server/pan-at-rest.server.ts, called by scripts/db/prepare.ts and
-- scripts/migrate.ts) encrypts those rows and sets their hash before the app serves anything.

ALTER TABLE "users" DROP CONSTRAINT "users_pan_upper_case";
DROP INDEX "users_pan_key";
ALTER TABLE "users" RENAME COLUMN "pan" TO "pan_encrypted";
ALTER TABLE "users" ADD COLUMN "pan_hash" TEXT;
CREATE UNIQUE INDEX "users_pan_hash_key" ON "users"("pan_hash");

ALTER TABLE "family_members" DROP CONSTRAINT "family_members_pan_format";
DROP INDEX "family_members_user_id_pan_key";
DROP INDEX "family_members_pan_idx";
ALTER TABLE "family_members" RENAME COLUMN "pan" TO "pan_encrypted";
ALTER TABLE "family_members" ADD COLUMN "pan_hash" TEXT;
CREATE UNIQUE INDEX "family_members_user_id_pan_hash_key" ON "family_members"("user_id", "pan_hash");
CREATE INDEX "family_members_pan_hash_idx" ON "family_members"("pan_hash");
