-- A research item's optional PDF attachment (docs/research.md, decision 050): all four or none.
ALTER TABLE "research_items"
  ADD COLUMN "attachment_key" TEXT,
  ADD COLUMN "attachment_name" TEXT,
  ADD COLUMN "attachment_size" INTEGER,
  ADD COLUMN "attachment_sha256" TEXT,
  ADD CONSTRAINT "research_items_attachment_all_or_none" CHECK (
    (attachment_key IS NULL) = (attachment_name IS NULL)
    AND (attachment_key IS NULL) = (attachment_size IS NULL)
    AND (attachment_key IS NULL) = (attachment_sha256 IS NULL)
  );
