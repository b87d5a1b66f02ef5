-- Once a server has had API keys it stays closed (callers see only their own things)
-- even after the last key is revoked, until an operator reopens it (`puzzlepress keys
-- open`): the `access` setting is `closed` from the first key on. A database that has
-- had keys before this migration is closed now.
INSERT INTO settings (name, value) SELECT 'access', 'closed' WHERE EXISTS (SELECT 1 FROM api_keys)
ON CONFLICT (name) DO NOTHING;
