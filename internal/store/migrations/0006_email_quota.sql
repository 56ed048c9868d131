-- How many e-mails each address was sent lately, for the per-address limit
-- on reset (and confirmation) e-mails: the send times of the last hour, as
-- space-separated Unix seconds, compared and swapped as one value so that
-- instances sharing the database cannot both take the last allowance.

CREATE TABLE email_quota (
    address TEXT PRIMARY KEY,
    recent TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
