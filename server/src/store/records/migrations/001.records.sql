-- The records, for DuckDB and PostgreSQL alike. "IF NOT EXISTS" and the ALTERs bring a DuckDB file
-- made before migrations existed (0.1.0 and earlier) to the same shape: its error records had no
-- endpoint column, and its notes and history no n. ALTERs come before the indexes, which DuckDB
-- would not let them pass.
CREATE TABLE IF NOT EXISTS customers (account_id text NOT NULL, id text NOT NULL, doc json NOT NULL, PRIMARY KEY (account_id, id));
CREATE TABLE IF NOT EXISTS webhooks (account_id text NOT NULL, id text NOT NULL, doc json NOT NULL, PRIMARY KEY (account_id, id));
CREATE SEQUENCE IF NOT EXISTS notes_n_seq;
CREATE TABLE IF NOT EXISTS notes (
  n bigint PRIMARY KEY DEFAULT nextval('notes_n_seq'), account_id text NOT NULL, customer_id text NOT NULL, ts bigint NOT NULL, doc json NOT NULL);
ALTER TABLE notes ADD COLUMN IF NOT EXISTS n bigint DEFAULT nextval('notes_n_seq');
CREATE SEQUENCE IF NOT EXISTS history_n_seq;
CREATE TABLE IF NOT EXISTS history (
  n bigint PRIMARY KEY DEFAULT nextval('history_n_seq'), account_id text NOT NULL, customer_id text NOT NULL, ts bigint NOT NULL, doc json NOT NULL);
ALTER TABLE history ADD COLUMN IF NOT EXISTS n bigint DEFAULT nextval('history_n_seq');
CREATE TABLE IF NOT EXISTS error_records (
  account_id text NOT NULL, id text NOT NULL, status text NOT NULL, endpoint text, created_ts bigint NOT NULL,
  version integer NOT NULL, doc json NOT NULL, PRIMARY KEY (account_id, id));
ALTER TABLE error_records ADD COLUMN IF NOT EXISTS endpoint text;
UPDATE error_records SET endpoint = doc->>'endpoint' WHERE endpoint IS NULL;
CREATE TABLE IF NOT EXISTS activity (
  account_id text NOT NULL, id text NOT NULL, kind text NOT NULL, subject text, ts bigint NOT NULL, doc json NOT NULL, PRIMARY KEY (account_id, id));
CREATE TABLE IF NOT EXISTS idempotency (account_id text NOT NULL, "key" text NOT NULL, doc json NOT NULL, PRIMARY KEY (account_id, "key"));
CREATE TABLE IF NOT EXISTS sequences (name text PRIMARY KEY, next bigint NOT NULL);
CREATE INDEX IF NOT EXISTS notes_by_customer ON notes (account_id, customer_id, ts);
CREATE INDEX IF NOT EXISTS history_by_customer ON history (account_id, customer_id, ts);
CREATE INDEX IF NOT EXISTS error_records_newest ON error_records (account_id, created_ts DESC, id DESC);
CREATE INDEX IF NOT EXISTS activity_newest ON activity (account_id, ts DESC, id DESC);
