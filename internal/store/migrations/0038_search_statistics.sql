-- PostgreSQL estimates how many rows a console search's prefix matches
-- from a histogram of 100 buckets per searched expression (the default
-- statistics target). A prefix that matches ten rows in 100,000 was now and
-- then estimated at about a thousand, depending on ANALYZE's sample, and
-- the plan then walked the whole list in its order, or read a table whole,
-- instead of the few rows the indexes hold (docs/decisions/0210-search-statistics.md).
-- A thousand buckets keep the estimate within a bucket of 0.1 %.
-- on postgres
ALTER TABLE contact_messages ALTER COLUMN email SET STATISTICS 1000;
ALTER INDEX contact_messages_domain ALTER COLUMN 1 SET STATISTICS 1000;
ALTER INDEX contact_messages_first_name ALTER COLUMN 1 SET STATISTICS 1000;
ALTER INDEX contact_messages_last_name ALTER COLUMN 1 SET STATISTICS 1000;
ALTER TABLE users ALTER COLUMN email SET STATISTICS 1000;
ALTER INDEX users_domain ALTER COLUMN 1 SET STATISTICS 1000;
ALTER INDEX profiles_full_name ALTER COLUMN 1 SET STATISTICS 1000;
ALTER INDEX profiles_last_word ALTER COLUMN 1 SET STATISTICS 1000;
ALTER TABLE waitlist_signups ALTER COLUMN email SET STATISTICS 1000;
ALTER INDEX waitlist_signups_domain ALTER COLUMN 1 SET STATISTICS 1000;
