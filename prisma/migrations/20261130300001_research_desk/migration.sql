-- The analyst's desk (docs/research.md): scheduled publishing, the list's filters and the item
-- page's delivery counts and failed deliveries at any roll size.

-- When a scheduled draft is to be published (India time on the form), and who scheduled it; kept
-- after publication as the time it was scheduled for.
ALTER TABLE "research_items"
  ADD COLUMN "scheduled_at" TIMESTAMPTZ(3),
  ADD COLUMN "scheduled_by_id" UUID,
  ADD CONSTRAINT "research_items_scheduled_by_id_fkey" FOREIGN KEY ("scheduled_by_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A published item carries its publication time, its issuer and its signature; drafts and
-- scheduled items none of them yet.
ALTER TABLE "research_items" DROP CONSTRAINT "research_items_published_is_signed";
ALTER TABLE "research_items" ADD CONSTRAINT "research_items_published_is_signed" CHECK (
  "status" <> 'PUBLISHED' OR (
    "published_at" IS NOT NULL AND "analyst_name" IS NOT NULL AND "sebi_registration_number" IS NOT NULL
    AND "bse_enlistment_number" IS NOT NULL AND "content_sha256" IS NOT NULL AND "signature" IS NOT NULL
    AND "signing_key_fingerprint" IS NOT NULL
  )
);
-- A scheduled item says when and by whom.
ALTER TABLE "research_items" ADD CONSTRAINT "research_items_scheduled_has_time" CHECK (
  "status" <> 'SCHEDULED' OR ("scheduled_at" IS NOT NULL AND "scheduled_by_id" IS NOT NULL)
);

-- The scheduled-publishing job: scheduled items whose time has come.
CREATE INDEX "research_items_scheduled_due_idx" ON "research_items" ("scheduled_at") WHERE "status" = 'SCHEDULED';
-- The admin's list, newest first by its date: publication time, else the time written.
CREATE INDEX "research_items_listed_at_id_idx" ON "research_items" ((COALESCE("published_at", "created_at")), "id");
-- The item page: counts per channel and status (an index-only scan of the item's rows).
CREATE INDEX "research_deliveries_item_id_channel_status_idx" ON "research_deliveries" ("item_id", "channel", "status");
-- The item page: its failed deliveries, newest first, and Retry.
CREATE INDEX "research_deliveries_failed_idx" ON "research_deliveries" ("item_id", "failed_at", "id") WHERE "status" = 'FAILED';
