-- A league's season record (the `Season` of src/season/record.rs, as JSON): every league
-- version, published list, result, cup draw and change of the season. `rev` counts its
-- updates, so that two changes made at once cannot both land on the same revision.
CREATE TABLE seasons (
    league TEXT PRIMARY KEY REFERENCES leagues(id) ON DELETE CASCADE,
    record TEXT NOT NULL,
    rev BIGINT NOT NULL,
    updated BIGINT NOT NULL
);
