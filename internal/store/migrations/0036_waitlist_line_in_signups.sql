-- A sign-up's place in its program's line moves into the sign-up's own
-- row (docs/decisions/0208-place-in-the-sign-up-row.md): waitlist_line
-- repeated the sign-up's id (with a key of its own), program and time in a
-- second row, some 180 bytes a sign-up. line_code is its personal link's
-- code, line_seq its order of joining, line_credits the referrals credited
-- to it, line_key = line_seq - 10 * line_credits the key the line sorts by,
-- ip_hash a hash of the address it signed up from. A sign-up without a
-- place (unsubscribed) has NULL line_code, line_seq and line_key; both
-- indexes hold only the sign-ups with one.

ALTER TABLE waitlist_signups ADD COLUMN line_code TEXT NULL;
ALTER TABLE waitlist_signups ADD COLUMN line_seq INTEGER NULL;
ALTER TABLE waitlist_signups ADD COLUMN line_credits INTEGER NOT NULL DEFAULT 0;
ALTER TABLE waitlist_signups ADD COLUMN line_key INTEGER NULL;
ALTER TABLE waitlist_signups ADD COLUMN ip_hash TEXT NOT NULL DEFAULT '';

UPDATE waitlist_signups SET line_code = l.code, line_seq = l.seq, line_credits = l.credits, line_key = l.line_key,
    ip_hash = l.ip_hash
FROM waitlist_line l WHERE l.signup_id = waitlist_signups.id;

DROP TABLE waitlist_line;

CREATE UNIQUE INDEX waitlist_signups_line_code ON waitlist_signups (line_code) WHERE line_code IS NOT NULL;
CREATE INDEX waitlist_signups_line ON waitlist_signups (program, line_key, line_seq) WHERE line_key IS NOT NULL;
