-- Claims in submission order to the microsecond (seconds tie under load), expired leases first.
ALTER TABLE jobs ADD COLUMN submitted_us BIGINT NOT NULL DEFAULT 0;
CREATE INDEX jobs_claim ON jobs (state, submitted_us);
-- Invitations: one use, until they expire (those from before: 14 days after they were made).
ALTER TABLE invitations ADD COLUMN expires BIGINT NOT NULL DEFAULT 0;
UPDATE invitations SET expires = created + 1209600;
ALTER TABLE invitations ADD COLUMN used_by TEXT;
-- API tokens expire (those from before: 90 days after they were made).
ALTER TABLE api_tokens ADD COLUMN expires BIGINT NOT NULL DEFAULT 0;
UPDATE api_tokens SET expires = created + 7776000;
-- Account names compared in Unicode NFKC case-folded form (filled in by the service at start).
ALTER TABLE users ADD COLUMN name_key TEXT;
