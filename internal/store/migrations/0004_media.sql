-- Uploaded files of the user-media bucket: who owns each object, its size and
-- sniffed type. The files themselves live in the media store (disk or S3).

CREATE TABLE media_objects (
    object_key TEXT PRIMARY KEY,
    id TEXT NOT NULL,
    owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    size_bytes BIGINT NOT NULL,
    content_type TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE INDEX media_objects_owner_id ON media_objects (owner_id);
