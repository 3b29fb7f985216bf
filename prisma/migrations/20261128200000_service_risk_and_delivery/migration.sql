-- Every service states its risk level and how and how often its research is delivered (issue 20
-- item 5). Both are required; existing rows are backfilled so the columns can be NOT NULL, and the
-- admin reviews them on the service form.
CREATE TYPE "risk_level" AS ENUM ('LOW', 'MODERATE', 'HIGH', 'VERY_HIGH');

ALTER TABLE "services" ADD COLUMN "risk_level" "risk_level", ADD COLUMN "delivery" TEXT;

-- Never understate a risk: a service that says it is VERY HIGH or covers derivatives, options,
-- futures or commodity contracts is VERY_HIGH; one that states another level keeps it; the rest
-- are HIGH (equity research, where prices can fall sharply).
UPDATE "services"
SET "risk_level" = CASE
  WHEN array_to_string("description", ' ') ~* 'risk level:\s*very high'
    OR ("name" || ' ' || array_to_string("description", ' ')) ~* '(option|derivative|futures|f&o|commodit|mcx)'
    THEN 'VERY_HIGH'::"risk_level"
  WHEN array_to_string("description", ' ') ~* 'risk level:\s*moderate' THEN 'MODERATE'::"risk_level"
  WHEN array_to_string("description", ' ') ~* 'risk level:\s*low' THEN 'LOW'::"risk_level"
  ELSE 'HIGH'::"risk_level"
END;

-- The store has always delivered research on its website to subscribers for the paid period.
UPDATE "services"
SET "delivery" = 'On this website, as each research report or recommendation is published, during the subscription.';

ALTER TABLE "services" ALTER COLUMN "risk_level" SET NOT NULL, ALTER COLUMN "delivery" SET NOT NULL;

-- Like the price and duration checks: no empty delivery text.
ALTER TABLE "services" ADD CONSTRAINT "services_delivery_not_blank" CHECK (length(btrim("delivery")) > 0);
