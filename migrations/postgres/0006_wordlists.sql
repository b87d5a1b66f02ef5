-- Uploaded word lists. A list's text is stored once, keyed by the SHA-256 of its bytes
-- (its id is the first 32 hex digits of that hash), however many owners upload it; each
-- owner has its own row (with its own name), and a content row goes when its last owner
-- row does.
CREATE TABLE wordlist_contents (
    id          TEXT    PRIMARY KEY,
    sha256      TEXT    NOT NULL UNIQUE,
    body        BYTEA   NOT NULL,
    bytes       BIGINT  NOT NULL,
    entries     BIGINT  NOT NULL,
    by_length   TEXT    NOT NULL,  -- JSON object: entry length -> count
    created_at  BIGINT  NOT NULL
);

CREATE TABLE wordlists (
    owner       TEXT    NOT NULL,
    id          TEXT    NOT NULL REFERENCES wordlist_contents (id),
    name        TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL,
    PRIMARY KEY (owner, id)
);
CREATE INDEX wordlists_id ON wordlists (id);
