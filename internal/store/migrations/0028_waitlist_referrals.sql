-- The referral loop of the waitlists (docs/decisions/0190-place-in-line.md).
-- waitlist_line holds each subscribed sign-up's place in its program's
-- line: seq is the order of joining, credits the referrals credited to it,
-- line_key = seq - 10 * credits the key the line is sorted by (on equal
-- keys more credits first, then seq), and code the opaque code of its personal link. waitlist_referrals
-- holds each sign-up made through a link, credited or not (with why not).
-- Unsubscribing or deleting the sign-up removes its rows here.

CREATE TABLE waitlist_line (
    signup_id TEXT PRIMARY KEY,
    program TEXT NOT NULL,
    code TEXT NOT NULL UNIQUE,
    seq INTEGER NOT NULL,
    credits INTEGER NOT NULL DEFAULT 0,
    line_key INTEGER NOT NULL,
    ip_hash TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX waitlist_line_place ON waitlist_line (program, line_key, seq);
CREATE INDEX waitlist_line_seq ON waitlist_line (program, seq);

CREATE TABLE waitlist_referrals (
    signup_id TEXT PRIMARY KEY,
    referrer_id TEXT NOT NULL,
    program TEXT NOT NULL,
    credited INTEGER NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    ip_hash TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX waitlist_referrals_referrer ON waitlist_referrals (referrer_id, created_at);
CREATE INDEX waitlist_referrals_program ON waitlist_referrals (program, created_at);

-- Addresses a mail server refused permanently (a 5xx answer to RCPT TO):
-- announcements skip them, the console lists them.
CREATE TABLE email_bounces (
    email TEXT PRIMARY KEY,
    reason TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
