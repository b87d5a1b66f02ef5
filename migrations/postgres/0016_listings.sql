-- Listings, newest first: a caller's jobs of every kind (GET /jobs) and a publisher's
-- print runs (GET /printruns), each walked by sequence number.
CREATE INDEX jobs_owner_seq ON jobs (owner, seq);
CREATE INDEX printruns_owner_seq ON printruns (owner, seq);
