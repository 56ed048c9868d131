-- Sign-in state: rotating refresh tokens and single-use e-mailed tokens.
-- Only SHA-256 hashes of tokens are stored, never the tokens themselves.

CREATE TABLE refresh_tokens (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    revoked_at TIMESTAMP NULL,
    replaced_by TEXT NULL,
    successor_sealed TEXT NULL
);

CREATE INDEX refresh_tokens_session_id ON refresh_tokens (session_id);

CREATE TABLE one_time_tokens (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    used_at TIMESTAMP NULL
);

CREATE INDEX one_time_tokens_user_id ON one_time_tokens (user_id, kind);

-- How each session was signed in (password, recovery, otp): the access
-- tokens of later refreshes report it in their amr claim.
ALTER TABLE sessions ADD COLUMN auth_method TEXT NOT NULL DEFAULT 'password';
