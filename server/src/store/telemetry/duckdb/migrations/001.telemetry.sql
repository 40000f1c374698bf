-- The telemetry as it was when its migrations began: each statement holds for a database made by an earlier version too.
CREATE TABLE IF NOT EXISTS request_events (
  account_id VARCHAR NOT NULL, seq BIGINT NOT NULL, ts BIGINT NOT NULL,
  "method" VARCHAR NOT NULL, route VARCHAR NOT NULL, path VARCHAR NOT NULL,
  status SMALLINT NOT NULL, duration_ms DOUBLE NOT NULL,
  api_version VARCHAR, key_id VARCHAR, customer_id VARCHAR,
  actor_id VARCHAR, actor_name VARCHAR, bytes BIGINT
);
-- Added later: the headers a collector was allowed to keep, as a JSON object.
ALTER TABLE request_events ADD COLUMN IF NOT EXISTS headers VARCHAR;
-- Added later: whether headers or bodies were kept for the request, in request_payloads.
ALTER TABLE request_events ADD COLUMN IF NOT EXISTS has_payload BOOLEAN;
-- Headers and bodies, masked, apart from the figures: they expire sooner and can be erased.
CREATE TABLE IF NOT EXISTS request_payloads (
  account_id VARCHAR NOT NULL, ts BIGINT NOT NULL, seq BIGINT NOT NULL, customer_id VARCHAR,
  headers VARCHAR, response_headers VARCHAR,
  request_type VARCHAR, request_size BIGINT, request_truncated BOOLEAN, request_text VARCHAR,
  response_type VARCHAR, response_size BIGINT, response_truncated BOOLEAN, response_text VARCHAR,
  -- The distinct words of both bodies, lower-cased, each between spaces: what q looks for (search-words.ts).
  words VARCHAR NOT NULL
);
-- Requests counted per quarter hour (every time zone's midnight falls on one), so series over
-- months read thousands of rows instead of millions; kept in the same transaction as the events.
CREATE TABLE IF NOT EXISTS request_rollup (
  account_id VARCHAR NOT NULL, bucket BIGINT NOT NULL, api_version VARCHAR NOT NULL, "method" VARCHAR NOT NULL,
  route VARCHAR NOT NULL, status SMALLINT NOT NULL, requests BIGINT NOT NULL, bytes BIGINT NOT NULL,
  PRIMARY KEY (account_id, bucket, api_version, "method", route, status)
);
CREATE TABLE IF NOT EXISTS rollup_state (upto_seq BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  account_id VARCHAR NOT NULL, webhook_id VARCHAR NOT NULL, ts BIGINT NOT NULL,
  delivered BOOLEAN NOT NULL, status SMALLINT
);
