-- Secrets a store makes once and every server of it shares (the key behind request ids).
CREATE TABLE IF NOT EXISTS secrets (name text PRIMARY KEY, value text NOT NULL);
