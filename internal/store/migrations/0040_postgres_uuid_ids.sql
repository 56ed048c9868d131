-- On PostgreSQL the ids of the two tables that grow with every sign-up
-- (the sign-ups and the outbox), and the columns that name them, are kept
-- as uuid, 16 bytes, instead of 36 characters of text
-- (docs/decisions/0213-postgres-uuid-ids.md): about 125 bytes less per
-- sign-up with its e-mail's record, counting the rows, the keys and the
-- list's (created_at, id) index. Every id here is a UUID (store.NewID,
-- store.NewOrderedID); SQLite keeps them as text.
-- on postgres
ALTER TABLE waitlist_signups ALTER COLUMN id TYPE uuid USING id::uuid;
ALTER TABLE outbox_emails ALTER COLUMN id TYPE uuid USING id::uuid;
ALTER TABLE waitlist_referrals ALTER COLUMN signup_id TYPE uuid USING signup_id::uuid,
    ALTER COLUMN referrer_id TYPE uuid USING referrer_id::uuid;
ALTER TABLE announcement_deliveries ALTER COLUMN signup_id TYPE uuid USING signup_id::uuid,
    ALTER COLUMN email_id TYPE uuid USING email_id::uuid;
