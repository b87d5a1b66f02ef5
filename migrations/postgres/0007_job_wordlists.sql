-- The word list a job reads (fills and word squares): a list's text stays while a job that
-- reads it is kept, and a request's inline list, stored once by its hash like an upload
-- but with no owner row, is swept with the last job that reads it.
ALTER TABLE jobs ADD COLUMN wordlist TEXT;
CREATE INDEX jobs_wordlist ON jobs (wordlist) WHERE wordlist IS NOT NULL;

-- When the text was last stored (uploaded, or sent inline); the sweeper leaves recently
-- stored texts alone so that it never races a request storing one.
ALTER TABLE wordlist_contents ADD COLUMN used_at BIGINT NOT NULL DEFAULT 0;
UPDATE wordlist_contents SET used_at = created_at;
