-- A revoked key's name may be given to a new key: names are unique among active keys
-- only (`keys revoke NAME` acts on the one active key of that name).
ALTER TABLE api_keys DROP CONSTRAINT api_keys_name_key;
CREATE UNIQUE INDEX api_keys_active_name ON api_keys (name) WHERE revoked_at IS NULL;
