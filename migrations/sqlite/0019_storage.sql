-- What each owner keeps: a job of a kept kind (a book, a dictionary, a fill…) counts the
-- bytes it stores (request, result, printed pages) in `stored_bytes` when it ends, and the
-- triggers keep each owner's sum in `storage`, for the storage quota checked when a
-- product is ordered.
ALTER TABLE jobs ADD COLUMN stored_bytes BIGINT NOT NULL DEFAULT 0;

-- Jobs of the anonymous tier, products too, are deleted once ended past the retention time.
CREATE INDEX jobs_anonymous_ended ON jobs (finished_at) WHERE tier = 'anonymous';

CREATE TABLE storage (
    owner TEXT   PRIMARY KEY,
    bytes BIGINT NOT NULL
);

UPDATE jobs SET stored_bytes = length(CAST(params AS BLOB)) + COALESCE(length(CAST(result AS BLOB)), 0)
    + COALESCE((SELECT COALESCE(length(b.packed), 0) + COALESCE(length(CAST(b.answer AS BLOB)), 0)
                FROM books b WHERE b.job_id = jobs.id), 0)
WHERE state IN ('succeeded', 'failed', 'cancelled')
  AND kind IN ('books', 'dictionaries', 'oneup.books', 'crosswords.fills', 'wordsearches.books');

INSERT INTO storage (owner, bytes) SELECT owner, SUM(stored_bytes) FROM jobs WHERE stored_bytes > 0 GROUP BY owner;

CREATE TRIGGER jobs_stored AFTER UPDATE OF stored_bytes ON jobs
WHEN NEW.stored_bytes <> OLD.stored_bytes
BEGIN
    INSERT INTO storage (owner, bytes) VALUES (NEW.owner, NEW.stored_bytes - OLD.stored_bytes)
    ON CONFLICT (owner) DO UPDATE SET bytes = bytes + excluded.bytes;
END;

CREATE TRIGGER jobs_unstored AFTER DELETE ON jobs
WHEN OLD.stored_bytes <> 0
BEGIN
    UPDATE storage SET bytes = bytes - OLD.stored_bytes WHERE owner = OLD.owner;
END;
