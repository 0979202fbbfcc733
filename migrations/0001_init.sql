-- fixtures service schema, version 1. Written once for SQLite and PostgreSQL: only TEXT, BIGINT
-- and DOUBLE PRECISION columns; ids are random 128-bit hex strings; times are Unix seconds.
CREATE TABLE users (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created BIGINT NOT NULL
);
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    csrf TEXT NOT NULL,
    expires BIGINT NOT NULL
);
CREATE TABLE api_tokens (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created BIGINT NOT NULL
);
CREATE TABLE login_failures (
    who TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX login_failures_who ON login_failures (who, at);
CREATE TABLE leagues (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    created BIGINT NOT NULL
);
CREATE TABLE league_versions (
    id TEXT PRIMARY KEY,
    league TEXT NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
    number BIGINT NOT NULL,
    toml TEXT NOT NULL,
    created BIGINT NOT NULL,
    UNIQUE (league, number)
);
CREATE TABLE members (
    league TEXT NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role TEXT NOT NULL,
    PRIMARY KEY (league, user_id)
);
CREATE TABLE invitations (
    token_hash TEXT PRIMARY KEY,
    league TEXT NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
    role TEXT NOT NULL,
    created BIGINT NOT NULL
);
CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    league TEXT NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
    version TEXT NOT NULL REFERENCES league_versions(id) ON DELETE CASCADE,
    spec TEXT NOT NULL,
    time_limit DOUBLE PRECISION NOT NULL,
    state TEXT NOT NULL,
    submitted BIGINT NOT NULL,
    started BIGINT,
    finished BIGINT,
    worker TEXT,
    lease_until BIGINT,
    attempts BIGINT NOT NULL DEFAULT 0,
    completions BIGINT NOT NULL DEFAULT 0,
    figures TEXT NOT NULL
);
CREATE INDEX jobs_queue ON jobs (state, submitted);
CREATE INDEX jobs_owner ON jobs (owner, state);
CREATE TABLE job_files (
    job TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    content TEXT NOT NULL,
    PRIMARY KEY (job, name)
);
CREATE TABLE publications (
    id TEXT PRIMARY KEY,
    league TEXT NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
    number BIGINT NOT NULL,
    version TEXT NOT NULL REFERENCES league_versions(id),
    job TEXT,
    csv TEXT NOT NULL,
    diff TEXT,
    created BIGINT NOT NULL,
    UNIQUE (league, number)
);
