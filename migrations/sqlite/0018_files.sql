-- Files a job made, kept with it (a dictionary's PDF: set once by its job, served as
-- stored). Written in the transaction that marks the job done; deleted with the job.
CREATE TABLE files (
    job_id TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    name   TEXT NOT NULL,
    bytes  BLOB NOT NULL,
    PRIMARY KEY (job_id, name)
);
