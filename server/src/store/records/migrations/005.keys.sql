-- The API keys the host registered: each key's name, customer, and when it was created and revoked.
CREATE TABLE IF NOT EXISTS api_keys (account_id text NOT NULL, id text NOT NULL, doc json NOT NULL, PRIMARY KEY (account_id, id));
