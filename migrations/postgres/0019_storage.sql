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

UPDATE jobs SET stored_bytes = octet_length(params) + COALESCE(octet_length(result), 0)
    + COALESCE((SELECT COALESCE(octet_length(b.packed), 0) + COALESCE(octet_length(b.answer), 0)
                FROM books b WHERE b.job_id = jobs.id), 0)
WHERE state IN ('succeeded', 'failed', 'cancelled')
  AND kind IN ('books', 'dictionaries', 'oneup.books', 'crosswords.fills', 'wordsearches.books');

INSERT INTO storage (owner, bytes) SELECT owner, SUM(stored_bytes) FROM jobs WHERE stored_bytes > 0 GROUP BY owner;

CREATE FUNCTION storage_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        UPDATE storage SET bytes = bytes - OLD.stored_bytes WHERE owner = OLD.owner;
    ELSE
        INSERT INTO storage (owner, bytes) VALUES (NEW.owner, NEW.stored_bytes - OLD.stored_bytes)
        ON CONFLICT (owner) DO UPDATE SET bytes = storage.bytes + excluded.bytes;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER jobs_stored AFTER UPDATE OF stored_bytes ON jobs
    FOR EACH ROW WHEN (NEW.stored_bytes <> OLD.stored_bytes) EXECUTE FUNCTION storage_counted();

CREATE TRIGGER jobs_unstored AFTER DELETE ON jobs
    FOR EACH ROW WHEN (OLD.stored_bytes <> 0) EXECUTE FUNCTION storage_counted();
