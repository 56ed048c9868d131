-- Wrong codes in a row of each second factor, and until when the factor
-- refuses codes after too many (the growing delays of package mfa). Kept
-- with the factor so that every instance refuses and counts alike; a right
-- code sets failed_attempts back to 0.
ALTER TABLE mfa_factors ADD COLUMN failed_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE mfa_factors ADD COLUMN locked_until TIMESTAMP NULL;
