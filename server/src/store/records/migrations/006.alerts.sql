-- Alerts: where they are sent, the rules that raise them, each rule's state between evaluations
-- (next_eval claims it for one server per cycle), and every alert with its notifications.
CREATE TABLE IF NOT EXISTS alert_channels (account_id text NOT NULL, id text NOT NULL, doc json NOT NULL, PRIMARY KEY (account_id, id));
CREATE TABLE IF NOT EXISTS alert_rules (account_id text NOT NULL, id text NOT NULL, doc json NOT NULL, PRIMARY KEY (account_id, id));
-- SLOs share the rules' state table: an SLO's id is its key there (ids start slo_, rules' rule_).
CREATE TABLE IF NOT EXISTS slos (account_id text NOT NULL, id text NOT NULL, doc json NOT NULL, PRIMARY KEY (account_id, id));
CREATE TABLE IF NOT EXISTS alert_rule_state (account_id text NOT NULL, rule_id text NOT NULL, next_eval bigint NOT NULL, doc json NOT NULL, PRIMARY KEY (account_id, rule_id));
CREATE TABLE IF NOT EXISTS alerts (
  account_id text NOT NULL, id text NOT NULL, rule_id text NOT NULL, state text NOT NULL, started_ts bigint NOT NULL, doc json NOT NULL,
  PRIMARY KEY (account_id, id));
CREATE INDEX IF NOT EXISTS alerts_newest ON alerts (account_id, started_ts DESC, id DESC);
