-- A minor's acceptances bind no one (Indian Contract Act s.11: a minor's agreement is void) and the
-- consent in them is not a parent's (DPDP Act s.9): the retention job erases them, with the PAN card
-- image, from an account that never saved an adult date of birth and never paid (docs/regulatory.md,
-- "Retention"). The append-only trigger lets exactly those rows go early; every other rule stays.
CREATE OR REPLACE FUNCTION "acceptances_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND OLD."accepted_at" < now() - interval '5 years' THEN
    RETURN OLD;
  END IF;
  IF TG_OP = 'DELETE' AND EXISTS (
    SELECT 1 FROM "users" u
     WHERE u."id" = OLD."user_id" AND u."erased_at" IS NULL
       AND (u."date_of_birth" IS NULL
            OR u."date_of_birth" > ((now() AT TIME ZONE 'Asia/Kolkata')::date - interval '18 years'))
       AND NOT EXISTS (SELECT 1 FROM "payments" p WHERE p."user_id" = u."id")) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'acceptances are append-only records kept for 5 years: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;
