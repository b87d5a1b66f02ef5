-- Durable job queue. Times are Unix milliseconds (BIGINT in both backends) so lease
-- arithmetic is the same SQL everywhere.
CREATE TABLE jobs (
    seq              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- claim order
    id               TEXT    NOT NULL UNIQUE,            -- public id (random, unguessable)
    kind             TEXT    NOT NULL,
    params           TEXT    NOT NULL,                   -- JSON
    state            TEXT    NOT NULL CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
    attempts         BIGINT  NOT NULL DEFAULT 0,
    max_attempts     BIGINT  NOT NULL,
    lease_owner      TEXT,
    lease_expires_at BIGINT,
    cancel_requested BOOLEAN NOT NULL DEFAULT FALSE,
    progress_done    BIGINT  NOT NULL DEFAULT 0,
    progress_total   BIGINT  NOT NULL DEFAULT 0,
    error            TEXT,
    result           TEXT,                               -- JSON
    idempotency_key  TEXT,
    created_at       BIGINT  NOT NULL,
    started_at       BIGINT,
    finished_at      BIGINT
);
CREATE INDEX jobs_claimable ON jobs (state, seq);
CREATE UNIQUE INDEX jobs_idempotency ON jobs (kind, idempotency_key);

-- Server-wide settings, e.g. the generated book secret shared by every replica.
CREATE TABLE settings (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
