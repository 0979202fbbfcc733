-- Claims in submission order to the microsecond (seconds tie under load), expired leases first.
ALTER TABLE jobs ADD COLUMN submitted_us BIGINT NOT NULL DEFAULT 0;
CREATE INDEX jobs_claim ON jobs (state, submitted_us);
