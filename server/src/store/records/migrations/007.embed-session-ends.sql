-- Ended embed sessions: one session (`session:<id>`), or every session of a customer minted
-- before `ended_at` (`customer:<id>`). A row is kept until no session it ends can still be valid.
CREATE TABLE IF NOT EXISTS embed_session_ends (account_id text NOT NULL, "key" text NOT NULL, ended_at bigint NOT NULL, keep_until bigint NOT NULL, PRIMARY KEY (account_id, "key"));
