-- Antibodies and reagents for special exams (spec 1 §2 /setting/reagent):
-- the advice dialog's marker picker offers the enabled, unexpired ones.
-- expires_on is a calendar day, YYYY-MM-DD. A name and lot pair is unique.
CREATE TABLE reagents (
    id {{ID}},
    name TEXT NOT NULL,
    clone TEXT NOT NULL DEFAULT '',
    vendor TEXT NOT NULL DEFAULT '',
    lot TEXT NOT NULL DEFAULT '',
    expires_on VARCHAR(10) NOT NULL DEFAULT '',
    status INTEGER NOT NULL DEFAULT 1,
    created_at {{TS}} NOT NULL,
    updated_at {{TS}} NOT NULL
);
CREATE UNIQUE INDEX reagents_name_lot ON reagents(name, lot);
