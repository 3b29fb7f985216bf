-- "Delivered" as a provider reports it (docs/research.md, "Delivery reports"): MSG91's delivery
-- report marks an SMS delivery DELIVERED with the time the handset received it.
ALTER TYPE "ResearchDeliveryStatus" ADD VALUE 'DELIVERED';

ALTER TABLE "research_deliveries" ADD COLUMN "delivered_at" TIMESTAMPTZ(3);

-- The webhook finds a delivery by the provider's id (MSG91's request id).
CREATE INDEX "research_deliveries_provider_message_id_idx" ON "research_deliveries" ("provider_message_id")
  WHERE "provider_message_id" IS NOT NULL;
