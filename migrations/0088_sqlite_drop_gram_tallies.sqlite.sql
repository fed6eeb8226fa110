-- The case tallies by one-character piece of migration 0084 leave SQLite:
-- since 65f0a5f its searches count the rows (the tally was slower there),
-- so the table had no reader and its triggers were only a cost on every
-- case write. PostgreSQL keeps them (its one-character searches that name
-- no hospital count through them, consultation.gramTally).
DROP TRIGGER IF EXISTS consultations_gram_tally_insert;
DROP TRIGGER IF EXISTS consultations_gram_tally_delete;
DROP TRIGGER IF EXISTS consultations_gram_tally_update_old;
DROP TRIGGER IF EXISTS consultations_gram_tally_update_new;
DROP TABLE IF EXISTS consultation_gram_tallies;
