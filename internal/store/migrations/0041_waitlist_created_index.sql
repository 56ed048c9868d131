-- The console's waitlist is read in (created_at, id) order; its index now
-- holds created_at alone (docs/decisions/0214-waitlist-created-index.md).
-- Both engines walk it in created_at order and sort only the sign-ups of
-- one instant by id (SQLite: "temp b-tree for right part of order by",
-- PostgreSQL: an incremental sort), a row or two where times are in
-- microseconds. The id in every entry cost 36 bytes a sign-up on SQLite
-- and 16 on PostgreSQL.
DROP INDEX waitlist_signups_created_id;
CREATE INDEX waitlist_signups_created ON waitlist_signups (created_at);
