-- The founders' console: contact messages get an inbox status and a note,
-- operator actions go to an append-only audit log, and the console's list
-- queries (filter, then newest or oldest first by (created_at, id), or by
-- e-mail) are answered from indexes.

ALTER TABLE contact_messages ADD COLUMN status TEXT NOT NULL DEFAULT 'open';
ALTER TABLE contact_messages ADD COLUMN note TEXT NOT NULL DEFAULT '';
ALTER TABLE contact_messages ADD COLUMN handled_at TIMESTAMP NULL;

-- (created_at, id) replaces the single-column created_at indexes: the
-- planner then reads pages in order without sorting ties.
DROP INDEX contact_messages_created_at;
CREATE INDEX contact_messages_created_id ON contact_messages (created_at, id);
CREATE INDEX contact_messages_status_created_id ON contact_messages (status, created_at, id);
CREATE INDEX contact_messages_email_id ON contact_messages (email, id);

DROP INDEX waitlist_signups_created_at;
-- program rides along so the daily series by program reads only the index.
CREATE INDEX waitlist_signups_created_id ON waitlist_signups (created_at, id, program);
CREATE INDEX waitlist_signups_program_created_id ON waitlist_signups (program, created_at, id);
CREATE INDEX waitlist_signups_email_id ON waitlist_signups (email, id);
-- Covering indexes for the overview's counts by program and by source.
CREATE INDEX waitlist_signups_program_unsub ON waitlist_signups (program, unsubscribed_at);
CREATE INDEX waitlist_signups_utm ON waitlist_signups (utm_source, utm_campaign);
CREATE INDEX waitlist_signups_referrer ON waitlist_signups (referrer);
CREATE INDEX waitlist_signups_page_path ON waitlist_signups (page_path);

CREATE INDEX users_created_id ON users (created_at, id);
CREATE INDEX profiles_role ON profiles (role);
CREATE INDEX profiles_created_at ON profiles (created_at);

CREATE TABLE audit_log (
    id TEXT PRIMARY KEY,
    actor_id TEXT NOT NULL,
    actor_email TEXT NOT NULL,
    action TEXT NOT NULL,
    target_type TEXT NOT NULL,
    target_id TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT '{}',
    ip TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL
);

CREATE INDEX audit_log_created_id ON audit_log (created_at, id);
