-- Job kinds are named after their resource's route ("books", "oneup.solves", …).
UPDATE jobs SET kind = 'books' WHERE kind = 'book';
UPDATE jobs SET kind = 'foxhole.strategies' WHERE kind = 'foxhole.strategy';
UPDATE jobs SET kind = 'crosswords.patterns' WHERE kind = 'crossword.patterns';
UPDATE jobs SET kind = 'crosswords.fills' WHERE kind = 'crossword.fill';
UPDATE jobs SET kind = 'oneup.solves' WHERE kind = 'oneup.solve';
UPDATE jobs SET kind = 'oneup.puzzles' WHERE kind = 'oneup.generate';

-- A job whose worker died waits until run_after (a short back-off) before it is claimed again.
ALTER TABLE jobs ADD COLUMN run_after BIGINT NOT NULL DEFAULT 0;

-- One row per run of a job: who ran it, when, and how it ended. outcome is NULL while the
-- run goes on.
CREATE TABLE job_attempts (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_id     TEXT    NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    attempt    BIGINT  NOT NULL,
    owner      TEXT    NOT NULL,
    started_at BIGINT  NOT NULL,
    ended_at   BIGINT,
    outcome    TEXT CHECK (outcome IN ('succeeded', 'failed', 'cancelled', 'released', 'lost')),
    error      TEXT
);
CREATE INDEX job_attempts_job ON job_attempts (job_id, id);
