-- When the account's holder proved they read its e-mail address: they opened
-- a link sent to it (the sign-up confirmation when confirmation is on, a
-- password-reset link, or the proof link of My account). Until then the
-- contact messages and waitlist sign-ups sent with that address are not
-- shown, exported or erased through the account (docs/decisions/
-- 0158-proof-of-address.md). email_confirmed_at keeps its Supabase meaning: it
-- is set at sign-up when confirmation is off, and says nothing of proof.
-- Accounts made before this column start unproven: nothing recorded which
-- of them opened a link.
ALTER TABLE users ADD COLUMN email_proven_at TIMESTAMP NULL;
