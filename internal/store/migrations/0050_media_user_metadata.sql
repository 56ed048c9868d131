-- The metadata a person attaches to an upload (storage-js's
-- upload(path, file, { metadata })), a JSON object of at most 1 KiB, kept
-- with the object's record and answered by info(); '{}' when none.
ALTER TABLE media_objects ADD COLUMN user_metadata TEXT NOT NULL DEFAULT '{}';
