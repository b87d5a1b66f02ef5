-- A revoked key's name may be given to a new key: names are unique among active keys
-- only (`keys revoke NAME` acts on the one active key of that name). SQLite cannot drop
-- a column's UNIQUE, so the table is made again without it.
CREATE TABLE api_keys_new (
    id          TEXT    PRIMARY KEY,
    name        TEXT    NOT NULL,
    role        TEXT    NOT NULL CHECK (role IN ('publisher', 'admin')),
    token_hash  TEXT    NOT NULL UNIQUE,
    created_at  BIGINT  NOT NULL,
    revoked_at  BIGINT
);
INSERT INTO api_keys_new (id, name, role, token_hash, created_at, revoked_at)
    SELECT id, name, role, token_hash, created_at, revoked_at FROM api_keys;
DROP TABLE api_keys;
ALTER TABLE api_keys_new RENAME TO api_keys;
CREATE UNIQUE INDEX api_keys_active_name ON api_keys (name) WHERE revoked_at IS NULL;
