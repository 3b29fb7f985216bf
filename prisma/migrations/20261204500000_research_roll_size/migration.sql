-- The roll's size kept with the published item (the roll is frozen at publication), so the admin's
-- list does not count a roll of 100,000 rows for each item it shows.
ALTER TABLE research_items ADD COLUMN roll_size integer;

UPDATE research_items i
SET roll_size = (SELECT count(*)::int FROM research_roll r WHERE r.item_id = i.id)
WHERE i.status = 'PUBLISHED';

