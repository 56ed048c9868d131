-- Wrong two-step codes count against the account, whatever the factor
-- they were tried on (docs/decisions/0218-wrong-codes-count-per-account.md):
-- the count in a row and the end of the wait move from each factor to the
-- user. An account keeps the highest count and the latest wait of its
-- factors, so no wait under way is shortened.
ALTER TABLE users ADD COLUMN mfa_failed_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN mfa_locked_until TIMESTAMP NULL;
UPDATE users SET
    mfa_failed_attempts = COALESCE((SELECT MAX(f.failed_attempts) FROM mfa_factors f WHERE f.user_id = users.id), 0),
    mfa_locked_until = (SELECT MAX(f.locked_until) FROM mfa_factors f WHERE f.user_id = users.id)
WHERE EXISTS (SELECT 1 FROM mfa_factors f WHERE f.user_id = users.id);
ALTER TABLE mfa_factors DROP COLUMN failed_attempts;
ALTER TABLE mfa_factors DROP COLUMN locked_until;
