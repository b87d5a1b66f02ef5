-- Print runs: one order for many copies of a book, each a book of its own (own serial and
-- seed) printed by an ordinary book job. Copies are queued a window at a time by a feeder,
-- so a run of 10,000 copies neither floods the queue nor starves other callers.
CREATE TABLE printruns (
    seq              INTEGER PRIMARY KEY AUTOINCREMENT,
    id               TEXT    NOT NULL UNIQUE,   -- public id (random, unguessable)
    owner            TEXT    NOT NULL,          -- who ordered it (as jobs.owner)
    tier             TEXT    NOT NULL,          -- the limits its books are printed under
    params           TEXT    NOT NULL,          -- JSON: the book each copy is, and the paper
    copies           BIGINT  NOT NULL,
    at_once          BIGINT  NOT NULL,          -- copies queued or running at once, at most
    fed              BIGINT  NOT NULL DEFAULT 0, -- copies queued so far (a hint; the books are the truth)
    idempotency_key  TEXT,
    created_at       BIGINT  NOT NULL
);
CREATE UNIQUE INDEX printruns_idempotency ON printruns (owner, idempotency_key);
CREATE INDEX printruns_feeding ON printruns (seq) WHERE fed < copies;

-- A copy's place in its run: copy numbers 1..copies, each queued once (the unique index
-- makes two feeders racing for one copy harmless).
ALTER TABLE books ADD COLUMN printrun TEXT;
ALTER TABLE books ADD COLUMN copy BIGINT;
CREATE UNIQUE INDEX books_printrun_copy ON books (printrun, copy) WHERE printrun IS NOT NULL;

-- SHA-256 (hex) of the book's interior PDF, written when the book is printed (the print
-- run manifest lists it).
ALTER TABLE books ADD COLUMN interior_sha256 TEXT;
