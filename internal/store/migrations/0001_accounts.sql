-- Accounts, their sign-in sessions and their marketplace profiles.
-- Written in SQL that both SQLite and PostgreSQL accept: TEXT ids (UUIDs made
-- in Go), TIMESTAMP columns holding UTC times, JSON lists kept as TEXT.

CREATE TABLE users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    is_admin BOOLEAN NOT NULL DEFAULT FALSE,
    email_confirmed_at TIMESTAMP NULL,
    user_metadata TEXT NOT NULL DEFAULT '{}',
    last_sign_in_at TIMESTAMP NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    user_agent TEXT NOT NULL DEFAULT '',
    ip TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    revoked_at TIMESTAMP NULL
);

CREATE INDEX sessions_user_id ON sessions (user_id);

CREATE TABLE profiles (
    user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    role TEXT NULL,
    full_name TEXT NOT NULL DEFAULT '',
    location TEXT NOT NULL DEFAULT '',
    age INTEGER NULL,
    phone_number TEXT NOT NULL DEFAULT '',
    gender TEXT NOT NULL DEFAULT '',
    height TEXT NOT NULL DEFAULT '',
    waist_size TEXT NOT NULL DEFAULT '',
    style_description TEXT NOT NULL DEFAULT '',
    clothing_aesthetics TEXT NOT NULL DEFAULT '[]',
    inspiration TEXT NOT NULL DEFAULT '',
    wants_clearance_program BOOLEAN NOT NULL DEFAULT FALSE,
    body_photo_urls TEXT NOT NULL DEFAULT '[]',
    profile_pic_url TEXT NULL,
    business_name TEXT NOT NULL DEFAULT '',
    registration_number TEXT NULL,
    business_mode TEXT NOT NULL DEFAULT '',
    logo_urls TEXT NOT NULL DEFAULT '[]',
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE outbox_emails (
    id TEXT PRIMARY KEY,
    to_address TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    kind TEXT NOT NULL DEFAULT '',
    sent_via TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
