-- Publishing's keys (docs/research.md, "The roll"; decision 063). A foreign key is checked row by row:
-- one query, one index probe and one row lock for each of the 100,000 rows a publication writes to the
-- roll (against research_items and users) and to the delivery log (against the roll), a lock that
-- writes WAL and, for users, dirties 100,000 customers' pages. Together 2.5 to 4 s of a publication's
-- 7 s of CPU, measured. What they kept stays kept, by cheaper means.

-- Customers are never deleted: erasure blanks them (app/server/account/retention.server.ts). Now a
-- rule of the database, so nothing that names a customer (the roll among them) can outlive one.
CREATE FUNCTION "users_never_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'customers are never deleted (erasure blanks them): % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER "users_never_deleted" BEFORE DELETE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "users_never_deleted"();
CREATE TRIGGER "users_never_truncated" BEFORE TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "users_never_deleted"();

-- The roll's customer: taken from users by the statement that writes the roll, and kept by the rule
-- above. The key's check locked every recipient's row of users (FOR KEY SHARE) inside the publication.
ALTER TABLE "research_roll" DROP CONSTRAINT "research_roll_user_id_fkey";

-- The roll's item and the log's roll row: checked once a statement, over the rows it wrote (a
-- transition table), instead of once a row. The deleting side is checked the same way. The roll is
-- written only by a transaction holding its item's row lock (publishing), and the log only with its
-- roll rows in that transaction, so no deletion can run between the check and the commit.
ALTER TABLE "research_roll" DROP CONSTRAINT "research_roll_item_id_fkey";

CREATE FUNCTION "research_roll_items_exist"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM (SELECT DISTINCT "item_id" FROM "added_roll") a
             WHERE NOT EXISTS (SELECT 1 FROM "research_items" i WHERE i."id" = a."item_id")) THEN
    RAISE EXCEPTION 'a research roll row names an item that does not exist'
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER "research_roll_items_exist" AFTER INSERT ON "research_roll"
  REFERENCING NEW TABLE AS "added_roll" FOR EACH STATEMENT EXECUTE FUNCTION "research_roll_items_exist"();

CREATE FUNCTION "research_items_without_roll"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "removed_items" d JOIN "research_roll" r ON r."item_id" = d."id") THEN
    RAISE EXCEPTION 'a research item with a roll is deleted only after its roll'
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER "research_items_without_roll" AFTER DELETE ON "research_items"
  REFERENCING OLD TABLE AS "removed_items" FOR EACH STATEMENT EXECUTE FUNCTION "research_items_without_roll"();

ALTER TABLE "research_deliveries" DROP CONSTRAINT "research_deliveries_roll_fkey";

CREATE FUNCTION "research_deliveries_on_roll"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "added_deliveries" a
             WHERE NOT EXISTS (SELECT 1 FROM "research_roll" r WHERE r."item_id" = a."item_id" AND r."user_id" = a."user_id")) THEN
    RAISE EXCEPTION 'a research delivery names a customer who is not on the item''s roll'
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER "research_deliveries_on_roll" AFTER INSERT ON "research_deliveries"
  REFERENCING NEW TABLE AS "added_deliveries" FOR EACH STATEMENT EXECUTE FUNCTION "research_deliveries_on_roll"();

CREATE FUNCTION "research_roll_without_deliveries"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "removed_roll" d JOIN "research_deliveries" l
             ON l."item_id" = d."item_id" AND l."user_id" = d."user_id") THEN
    RAISE EXCEPTION 'a research roll row with deliveries is deleted only after its deliveries'
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER "research_roll_without_deliveries" AFTER DELETE ON "research_roll"
  REFERENCING OLD TABLE AS "removed_roll" FOR EACH STATEMENT EXECUTE FUNCTION "research_roll_without_deliveries"();
