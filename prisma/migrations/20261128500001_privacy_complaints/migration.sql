-- Issue 19 item 6: a privacy grievance (DPDP Act s.13, SPDI Rules r.5(9)) is a complaint of its own
-- category on the same form, with the same reference and answer-by date.
ALTER TYPE "complaint_category" ADD VALUE 'PRIVACY' BEFORE 'OTHER';
