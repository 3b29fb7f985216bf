-- Research items (docs/research.md): a report an admin writes for one or more services, frozen,
-- hashed and signed when published, and its roll: one row per customer it reached.

CREATE TYPE "ResearchKind" AS ENUM ('REPORT');
CREATE TYPE "ResearchStatus" AS ENUM ('DRAFT', 'PUBLISHED');

CREATE TABLE "research_items" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "kind" "ResearchKind" NOT NULL DEFAULT 'REPORT',
  "status" "ResearchStatus" NOT NULL DEFAULT 'DRAFT',
  "title" TEXT NOT NULL,
  "body" TEXT NOT NULL,
  "financial_interest" BOOLEAN NOT NULL,
  "ownership_one_percent" BOOLEAN NOT NULL,
  "compensation_past_year" BOOLEAN NOT NULL,
  "other_conflict" TEXT NOT NULL,
  "ai_tools_used" BOOLEAN NOT NULL,
  "author_id" UUID NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "published_at" TIMESTAMPTZ(3),
  "analyst_name" TEXT,
  "sebi_registration_number" TEXT,
  "bse_enlistment_number" TEXT,
  "content_sha256" TEXT,
  "signature" TEXT,
  "signing_key_fingerprint" TEXT,
  CONSTRAINT "research_items_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "research_items_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  -- A published item carries its publication time, its issuer and its signature.
  CONSTRAINT "research_items_published_is_signed" CHECK (
    "status" = 'DRAFT' OR (
      "published_at" IS NOT NULL AND "analyst_name" IS NOT NULL AND "sebi_registration_number" IS NOT NULL
      AND "bse_enlistment_number" IS NOT NULL AND "content_sha256" IS NOT NULL AND "signature" IS NOT NULL
      AND "signing_key_fingerprint" IS NOT NULL
    )
  )
);
CREATE INDEX "research_items_created_at_id_idx" ON "research_items" ("created_at", "id");

CREATE TABLE "research_item_services" (
  "item_id" UUID NOT NULL,
  "service_id" UUID NOT NULL,
  CONSTRAINT "research_item_services_pkey" PRIMARY KEY ("item_id", "service_id"),
  CONSTRAINT "research_item_services_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "research_items"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "research_item_services_service_id_fkey" FOREIGN KEY ("service_id") REFERENCES "services"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "research_item_services_service_id_idx" ON "research_item_services" ("service_id");

-- One row per recipient, written in the publishing transaction; later channels' delivery states go here.
CREATE TABLE "research_roll" (
  "item_id" UUID NOT NULL,
  "user_id" UUID NOT NULL,
  "delivered_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "research_roll_pkey" PRIMARY KEY ("item_id", "user_id"),
  CONSTRAINT "research_roll_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "research_items"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "research_roll_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
-- /research: a customer's items newest first.
CREATE INDEX "research_roll_user_id_delivered_at_item_id_idx" ON "research_roll" ("user_id", "delivered_at", "item_id");
