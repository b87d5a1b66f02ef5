-- Callers without a key share part of the queue (the rest is kept for key holders): their
-- queued jobs are counted, and the oldest found, on every order of theirs.
CREATE INDEX jobs_anonymous_queued ON jobs (seq) WHERE tier = 'anonymous' AND state = 'queued';
