-- Deprecated endpoints with their sunsets (turned_off_at: when the sunset's activity item was
-- recorded), and the versions whose documentation was published.
CREATE TABLE IF NOT EXISTS deprecations (
  account_id text NOT NULL, id text NOT NULL, sunset_at bigint NOT NULL, turned_off_at bigint, doc json NOT NULL, PRIMARY KEY (account_id, id));
CREATE TABLE IF NOT EXISTS published_versions (account_id text NOT NULL, version text NOT NULL, doc json NOT NULL, PRIMARY KEY (account_id, version));
