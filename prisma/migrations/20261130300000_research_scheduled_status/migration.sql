-- A draft can be scheduled for a later minute (docs/research.md). A value added to an enum cannot be
-- used in the transaction that adds it, so the columns and checks that name it are the next migration.
ALTER TYPE "ResearchStatus" ADD VALUE 'SCHEDULED';
