-- The complaint register (issue 20): complaints from the form at /complaints/new and those the admin
-- enters from SCORES or other sources, each step recorded in complaint_events.
CREATE TYPE "complaint_category" AS ENUM ('SERVICE_DEFICIENCY', 'PAYMENT_OR_REFUND', 'RESEARCH_CONTENT', 'CONDUCT', 'OTHER');
CREATE TYPE "complaint_status" AS ENUM ('RECEIVED', 'ACKNOWLEDGED', 'ANSWERED', 'RESOLVED', 'CLOSED');

CREATE TABLE "complaints" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "reference" TEXT NOT NULL,
    "source" "complaint_source" NOT NULL,
    "source_reference" TEXT,
    "category" "complaint_category" NOT NULL,
    "text" TEXT NOT NULL,
    "impersonation" BOOLEAN NOT NULL DEFAULT false,
    "user_id" UUID,
    "complainant_name" TEXT,
    "contact_phone" TEXT,
    "contact_email" TEXT,
    "attachment_key" TEXT,
    "status" "complaint_status" NOT NULL DEFAULT 'RECEIVED',
    "version" INTEGER NOT NULL DEFAULT 0,
    "received_at" TIMESTAMPTZ(3) NOT NULL,
    "due_on" DATE NOT NULL,
    "resolved_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "complaints_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "complaints_reference_key" ON "complaints"("reference");
CREATE INDEX "complaints_status_due_on_idx" ON "complaints"("status", "due_on");
CREATE INDEX "complaints_user_id_idx" ON "complaints"("user_id");
CREATE INDEX "complaints_contact_phone_idx" ON "complaints"("contact_phone");
ALTER TABLE "complaints" ADD CONSTRAINT "complaints_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "complaint_events" (
    "id" BIGSERIAL NOT NULL,
    "complaint_id" UUID NOT NULL,
    "status" "complaint_status" NOT NULL,
    "actor_id" UUID,
    "message" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "complaint_events_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "complaint_events_complaint_id_id_idx" ON "complaint_events"("complaint_id", "id");
ALTER TABLE "complaint_events" ADD CONSTRAINT "complaint_events_complaint_id_fkey" FOREIGN KEY ("complaint_id") REFERENCES "complaints"("id") ON DELETE CASCADE ON UPDATE CASCADE;
