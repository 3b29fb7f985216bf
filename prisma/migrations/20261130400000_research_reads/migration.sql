-- The reader's side of research (docs/research.md, decision 040): when a customer first opened an
-- item (the unread marks on /research), and the index the archive and the retention job read
-- published items by.

CREATE TABLE "research_reads" (
  "user_id" UUID NOT NULL,
  "item_id" UUID NOT NULL,
  "read_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "research_reads_pkey" PRIMARY KEY ("user_id", "item_id"),
  CONSTRAINT "research_reads_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  CONSTRAINT "research_reads_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "research_items"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
-- The retention job erases an item's reads with it.
CREATE INDEX "research_reads_item_id_idx" ON "research_reads" ("item_id");

-- /research newest first by publication time, and the retention job's items older than 5 years.
CREATE INDEX "research_items_published_at_id_idx" ON "research_items" ("published_at", "id");
