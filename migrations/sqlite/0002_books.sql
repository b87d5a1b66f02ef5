-- Find the Fox books, keyed by serial. The row is made with its job; the letters, the
-- answer and the content hash are written in the transaction that marks the job done.
CREATE TABLE books (
    serial            TEXT    PRIMARY KEY,
    job_id            TEXT    NOT NULL UNIQUE REFERENCES jobs (id),
    generator_version BIGINT  NOT NULL,
    pages             BIGINT  NOT NULL,
    rows              BIGINT  NOT NULL,
    cols              BIGINT  NOT NULL,
    letters           BLOB,            -- base-3 packed, 5 letters a byte
    answer            TEXT,            -- JSON
    content_hash      TEXT,            -- SHA-256 (hex) of the book's text form
    created_at        BIGINT  NOT NULL,
    finished_at       BIGINT
);
