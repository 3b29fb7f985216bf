-- Service pages now add the research channels the store runs (app/domain/service-delivery.ts) after
-- a service's own words on how often. The demo catalogue's texts named the channels themselves
-- ("..., on this website and by e-mail"); they are cut back to the how-often part, only where a row
-- still holds exactly the seeded text. Texts an admin wrote are left as written.
UPDATE "services" SET "delivery" = 'Two to four stock ideas a week, as each is published'
  WHERE "delivery" = 'Two to four stock ideas a week on this website and by e-mail, as each is published';
UPDATE "services" SET "delivery" = 'A pre-market note every trading day, and option strategies before each weekly expiry'
  WHERE "delivery" = 'A pre-market note every trading day, and option strategies before each weekly expiry, on this website and by e-mail';
UPDATE "services" SET "delivery" = 'New positional ideas as they arise and a review every week'
  WHERE "delivery" = 'New positional ideas as they arise and a review every week, on this website and by e-mail';
UPDATE "services" SET "delivery" = 'The model portfolio reviewed every quarter, and company reports as they are published'
  WHERE "delivery" = 'The model portfolio reviewed every quarter, and company reports as they are published, on this website';
UPDATE "services" SET "delivery" = 'An outlook twice a week'
  WHERE "delivery" = 'An outlook twice a week, on this website and by e-mail';
