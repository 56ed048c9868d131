-- A waitlist sign-up is confirmed by a click in its confirmation e-mail
-- (docs/decisions/0227-referral-credit-after-confirmation.md): unconfirmed
-- is 1 until then. Sign-ups made before count as confirmed: the default
-- 0 rewrites no row on either store, and costs SQLite no byte of payload.
ALTER TABLE waitlist_signups ADD COLUMN unconfirmed SMALLINT NOT NULL DEFAULT 0;
-- A referral keeps the mailbox its sign-up's address reaches
-- (validate.MailboxKey): a program credits one mailbox once.
ALTER TABLE waitlist_referrals ADD COLUMN mailbox TEXT NOT NULL DEFAULT '';
CREATE INDEX waitlist_referrals_mailbox ON waitlist_referrals (program, mailbox) WHERE credited = 1;
