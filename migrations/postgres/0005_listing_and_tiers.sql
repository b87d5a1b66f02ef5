-- A publisher's books, newest first (GET /books): walked by job sequence number.
CREATE INDEX jobs_owner_kind_seq ON jobs (owner, kind, seq);
CREATE INDEX jobs_kind_seq ON jobs (kind, seq);

-- The limits a job was accepted under and runs with: 'publisher' (a key, or an open
-- service) or 'anonymous' (no key while keys are in use).
ALTER TABLE jobs ADD COLUMN tier TEXT NOT NULL DEFAULT 'publisher';
