-- API keys: only a SHA-256 of each token is kept; a revoked key stays listed.
CREATE TABLE api_keys (
    id          TEXT    PRIMARY KEY,
    name        TEXT    NOT NULL UNIQUE,
    role        TEXT    NOT NULL CHECK (role IN ('publisher', 'admin')),
    token_hash  TEXT    NOT NULL UNIQUE,
    created_at  BIGINT  NOT NULL,
    revoked_at  BIGINT
);

-- Who queued a job: 'key:ID' for an API key, 'anon:ADDRESS' for an anonymous client.
-- Idempotency keys are scoped to it, and workers take turns between owners.
ALTER TABLE jobs ADD COLUMN owner TEXT NOT NULL DEFAULT '';
DROP INDEX jobs_idempotency;
CREATE UNIQUE INDEX jobs_idempotency ON jobs (owner, kind, idempotency_key);
CREATE INDEX jobs_owner_claimable ON jobs (owner, state, seq);

-- One row per owner that has queued jobs: when a worker last took one of its jobs.
CREATE TABLE job_owners (
    owner        TEXT   PRIMARY KEY,
    last_claimed BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX job_owners_turn ON job_owners (last_claimed, owner);
