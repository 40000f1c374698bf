-- Each customer's rate limit, in requests a minute, as the host set it.
CREATE TABLE IF NOT EXISTS rate_limits (account_id text NOT NULL, customer_id text NOT NULL, requests_per_minute integer NOT NULL, PRIMARY KEY (account_id, customer_id));
