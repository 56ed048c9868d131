-- What a person agreed to and when (the Terms, the Privacy Policy, the
-- Wardrobe Clearance Program, a parent's consent for someone under 18), so
-- the account page and the data export can show it. One row per kind and
-- version; withdrawing a consent keeps the row with the time it ended.

CREATE TABLE consents (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    version TEXT NOT NULL,
    accepted_at TIMESTAMP NOT NULL,
    withdrawn_at TIMESTAMP NULL,
    UNIQUE (user_id, kind, version)
);

-- Deleting an account removes the contact messages sent from its address;
-- the retention sweep looks for old uploads and unconfirmed accounts.
CREATE INDEX account_contact_messages_email ON contact_messages (email);
CREATE INDEX account_media_objects_updated_at ON media_objects (updated_at);
CREATE INDEX account_users_created_at ON users (created_at);
