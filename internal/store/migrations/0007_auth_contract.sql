-- The rest of the auth contract: signing keys the client can check, TOTP
-- two-step sign-in, and PKCE flows for e-mailed links.

-- Signing keys of access tokens. The private key is sealed (AES-GCM) with a
-- key derived from the server secret; the public key is served as a JWK.
-- A rotated-out key is kept (retired_at set) until its tokens have expired.
CREATE TABLE signing_keys (
    id TEXT PRIMARY KEY,
    alg TEXT NOT NULL,
    private_sealed TEXT NOT NULL,
    public_jwk TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    retired_at TIMESTAMP NULL
);

-- Second factors (TOTP). The secret is sealed with a key derived from the
-- server secret; last_step is the last 30-second step whose code was
-- accepted, so no code works twice.
CREATE TABLE mfa_factors (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    friendly_name TEXT NOT NULL DEFAULT '',
    factor_type TEXT NOT NULL,
    status TEXT NOT NULL,
    secret_sealed TEXT NOT NULL,
    last_step BIGINT NOT NULL DEFAULT 0,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    last_challenged_at TIMESTAMP NULL
);

CREATE INDEX mfa_factors_user_id ON mfa_factors (user_id);

CREATE TABLE mfa_challenges (
    id TEXT PRIMARY KEY,
    factor_id TEXT NOT NULL REFERENCES mfa_factors(id) ON DELETE CASCADE,
    ip TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL,
    verified_at TIMESTAMP NULL
);

CREATE INDEX mfa_challenges_factor_id ON mfa_challenges (factor_id);

-- The assurance level of each session: aal2 once a second factor was
-- verified in it (mfa_at says when).
ALTER TABLE sessions ADD COLUMN aal TEXT NOT NULL DEFAULT 'aal1';
ALTER TABLE sessions ADD COLUMN mfa_at TIMESTAMP NULL;

-- PKCE: an e-mailed link (token_hash) that, once opened, yields a one-time
-- auth code (auth_code_hash) the client exchanges with its code verifier.
CREATE TABLE flow_states (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    code_challenge TEXT NOT NULL,
    code_challenge_method TEXT NOT NULL,
    auth_code_hash TEXT NULL UNIQUE,
    auth_code_issued_at TIMESTAMP NULL,
    used_at TIMESTAMP NULL,
    created_at TIMESTAMP NOT NULL
);

CREATE INDEX flow_states_user_id ON flow_states (user_id);
