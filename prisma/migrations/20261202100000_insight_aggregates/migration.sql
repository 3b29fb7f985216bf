-- /admin/insights (docs/admin.md, "Insights"; decision 045): the money per month and the
-- subscriptions per service per month, kept by triggers in the transaction that writes the ledger
-- row or the subscription, so the page reads a few hundred rows however many payments there are.
-- A trigger only appends a change row (no row is updated, so no two payments wait for each other);
-- the fold job adds the change rows into the month tables every few minutes, and a reader adds the
-- month rows and the change rows not folded yet.

-- Months are calendar months in India time, stored as their first day.
CREATE FUNCTION "insight_month"("at" TIMESTAMPTZ) RETURNS DATE LANGUAGE sql IMMUTABLE AS $$
  SELECT date_trunc('month', "at" AT TIME ZONE 'Asia/Kolkata')::date
$$;

CREATE TABLE "insight_money_months" (
  "month" DATE NOT NULL,
  "collected_paise" BIGINT NOT NULL DEFAULT 0,
  "refunded_paise" BIGINT NOT NULL DEFAULT 0,
  "gst_collected_paise" BIGINT NOT NULL DEFAULT 0,
  "gst_refunded_paise" BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT "insight_money_months_pkey" PRIMARY KEY ("month")
);

CREATE TABLE "insight_money_changes" (
  "id" BIGSERIAL NOT NULL,
  "month" DATE NOT NULL,
  "collected_paise" BIGINT NOT NULL,
  "refunded_paise" BIGINT NOT NULL,
  "gst_collected_paise" BIGINT NOT NULL,
  "gst_refunded_paise" BIGINT NOT NULL,
  CONSTRAINT "insight_money_changes_pkey" PRIMARY KEY ("id")
);

-- started: periods starting in the month; ended: periods ending in it (a period ended before it
-- started counts as ending in its starting month); renewed: those ending in it that the same
-- customer bought again for the same service within 30 days of the end.
CREATE TABLE "insight_service_months" (
  "service_id" UUID NOT NULL,
  "month" DATE NOT NULL,
  "started" INTEGER NOT NULL DEFAULT 0,
  "ended" INTEGER NOT NULL DEFAULT 0,
  "renewed" INTEGER NOT NULL DEFAULT 0,
  CONSTRAINT "insight_service_months_pkey" PRIMARY KEY ("service_id", "month")
);

CREATE TABLE "insight_service_changes" (
  "id" BIGSERIAL NOT NULL,
  "service_id" UUID NOT NULL,
  "month" DATE NOT NULL,
  "started" INTEGER NOT NULL,
  "ended" INTEGER NOT NULL,
  "renewed" INTEGER NOT NULL,
  CONSTRAINT "insight_service_changes_pkey" PRIMARY KEY ("id")
);

-- The cohort table needs every customer's first payment and their subscriptions months later: the
-- cohort job recomputes it (hourly) instead of the page.
CREATE TABLE "insight_cohorts" (
  "month" DATE NOT NULL,
  "customers" INTEGER NOT NULL,
  "after_1_month" INTEGER,
  "after_3_months" INTEGER,
  "after_6_months" INTEGER,
  "after_12_months" INTEGER,
  "computed_at" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "insight_cohorts_pkey" PRIMARY KEY ("month")
);

-- Ledger rows are written once and deleted only by the retention job: an insert adds, a delete takes away.
CREATE FUNCTION "insight_count_ledger_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign INTEGER := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  INSERT INTO "insight_money_changes" ("month", "collected_paise", "refunded_paise", "gst_collected_paise", "gst_refunded_paise")
  SELECT "insight_month"("occurred_at"),
         sign * coalesce(sum("amount_paise") FILTER (WHERE "kind" = 'PAYMENT'), 0),
         sign * coalesce(-sum("amount_paise") FILTER (WHERE "kind" = 'REFUND'), 0),
         sign * coalesce(sum("gst_paise") FILTER (WHERE "kind" = 'PAYMENT'), 0),
         sign * coalesce(-sum("gst_paise") FILTER (WHERE "kind" = 'REFUND'), 0)
  FROM "changed_rows"
  GROUP BY 1;
  RETURN NULL;
END $$;

CREATE TRIGGER "insight_ledger_inserted" AFTER INSERT ON "ledger_entries"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "insight_count_ledger_rows"();
CREATE TRIGGER "insight_ledger_deleted" AFTER DELETE ON "ledger_entries"
  REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "insight_count_ledger_rows"();

-- New periods: started and ended in their months, and the period each renews: the customer's
-- period of the service just before it (by start), when the new one starts within 30 days after
-- that one's end. Set-based: a payment's few rows use the (user_id, service_id, ends_at) index; the
-- large seed, which inserts every period in one statement with that index set aside, one hash join.
CREATE FUNCTION "insight_count_new_subscriptions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "insight_service_changes" ("service_id", "month", "started", "ended", "renewed")
  SELECT "service_id", "month", sum("started"), sum("ended"), sum("renewed")
  FROM (
    SELECT "service_id", "insight_month"("starts_at") AS "month", 1 AS "started", 0 AS "ended", 0 AS "renewed"
    FROM "changed_rows"
    UNION ALL
    SELECT "service_id", "insight_month"(greatest("starts_at", "ends_at")), 0, 1, 0 FROM "changed_rows"
    UNION ALL
    SELECT ordered."service_id", "insight_month"(ordered."previous_ends_at"), 0, 0, 1
    FROM (
      SELECT s."id", s."service_id", s."starts_at",
             lag(s."starts_at") OVER w AS "previous_starts_at", lag(s."ends_at") OVER w AS "previous_ends_at"
      FROM "subscriptions" s
      WHERE (s."user_id", s."service_id") IN (SELECT "user_id", "service_id" FROM "changed_rows")
      WINDOW w AS (PARTITION BY s."user_id", s."service_id" ORDER BY s."starts_at", s."id")
    ) ordered
    WHERE ordered."id" IN (SELECT "id" FROM "changed_rows")
      AND ordered."previous_ends_at" > ordered."previous_starts_at"
      AND ordered."previous_ends_at" <= ordered."starts_at"
      AND ordered."previous_ends_at" >= ordered."starts_at" - interval '30 days'
  ) counted
  GROUP BY "service_id", "month";
  RETURN NULL;
END $$;

CREATE TRIGGER "insight_subscriptions_inserted" AFTER INSERT ON "subscriptions"
  REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "insight_count_new_subscriptions"();

-- A period ended early or shortened moves from the month it was to end in to its new one. (A
-- renewal stays counted in the month its period was to end in when it was bought.)
CREATE FUNCTION "insight_count_changed_subscription"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "insight_service_changes" ("service_id", "month", "started", "ended", "renewed") VALUES
    (OLD."service_id", "insight_month"(OLD."starts_at"), -1, 0, 0),
    (NEW."service_id", "insight_month"(NEW."starts_at"), 1, 0, 0),
    (OLD."service_id", "insight_month"(greatest(OLD."starts_at", OLD."ends_at")), 0, -1, 0),
    (NEW."service_id", "insight_month"(greatest(NEW."starts_at", NEW."ends_at")), 0, 1, 0);
  RETURN NULL;
END $$;

-- Row by row, and only when a counted column changes: the reminder job updates many rows a run.
CREATE TRIGGER "insight_subscription_changed" AFTER UPDATE OF "service_id", "starts_at", "ends_at" ON "subscriptions"
  FOR EACH ROW
  WHEN (OLD."service_id" IS DISTINCT FROM NEW."service_id" OR OLD."starts_at" IS DISTINCT FROM NEW."starts_at"
        OR OLD."ends_at" IS DISTINCT FROM NEW."ends_at")
  EXECUTE FUNCTION "insight_count_changed_subscription"();

CREATE FUNCTION "insight_count_deleted_subscriptions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "insight_service_changes" ("service_id", "month", "started", "ended", "renewed")
  SELECT "service_id", "month", sum("started"), sum("ended"), 0
  FROM (
    SELECT "service_id", "insight_month"("starts_at") AS "month", -1 AS "started", 0 AS "ended" FROM "changed_rows"
    UNION ALL
    SELECT "service_id", "insight_month"(greatest("starts_at", "ends_at")), 0, -1 FROM "changed_rows"
  ) counted
  GROUP BY "service_id", "month";
  RETURN NULL;
END $$;

CREATE TRIGGER "insight_subscriptions_deleted" AFTER DELETE ON "subscriptions"
  REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "insight_count_deleted_subscriptions"();

-- What was written before these triggers, counted once, the same way.
INSERT INTO "insight_money_months" ("month", "collected_paise", "refunded_paise", "gst_collected_paise", "gst_refunded_paise")
SELECT "insight_month"("occurred_at"),
       coalesce(sum("amount_paise") FILTER (WHERE "kind" = 'PAYMENT'), 0),
       coalesce(-sum("amount_paise") FILTER (WHERE "kind" = 'REFUND'), 0),
       coalesce(sum("gst_paise") FILTER (WHERE "kind" = 'PAYMENT'), 0),
       coalesce(-sum("gst_paise") FILTER (WHERE "kind" = 'REFUND'), 0)
FROM "ledger_entries"
GROUP BY 1;

INSERT INTO "insight_service_months" ("service_id", "month", "started", "ended", "renewed")
SELECT "service_id", "month", sum("started"), sum("ended"), sum("renewed")
FROM (
  SELECT "service_id", "insight_month"("starts_at") AS "month", 1 AS "started", 0 AS "ended", 0 AS "renewed"
  FROM "subscriptions"
  UNION ALL
  SELECT "service_id", "insight_month"(greatest("starts_at", "ends_at")), 0, 1, 0 FROM "subscriptions"
  UNION ALL
  SELECT ordered."service_id", "insight_month"(ordered."previous_ends_at"), 0, 0, 1
  FROM (
    SELECT s."service_id", s."starts_at",
           lag(s."starts_at") OVER w AS "previous_starts_at", lag(s."ends_at") OVER w AS "previous_ends_at"
    FROM "subscriptions" s
    WINDOW w AS (PARTITION BY s."user_id", s."service_id" ORDER BY s."starts_at", s."id")
  ) ordered
  WHERE ordered."previous_ends_at" > ordered."previous_starts_at"
    AND ordered."previous_ends_at" <= ordered."starts_at"
    AND ordered."previous_ends_at" >= ordered."starts_at" - interval '30 days'
) counted
GROUP BY "service_id", "month";
