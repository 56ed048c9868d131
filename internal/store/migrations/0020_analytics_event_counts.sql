-- A funnel milestone (a waitlist sign-up, say) was one analytics_events row
-- per occurrence: two b-tree inserts (the table and its (day, name) index)
-- in every sign-up's commit, for a number the roll-up only counts. A row
-- now says how many occurrences it stands for (n): a group commit writes
-- one row per day and milestone with the count of its sign-ups. Page views
-- and rows from before stay one each.

ALTER TABLE analytics_events ADD COLUMN n INTEGER NOT NULL DEFAULT 1;
