-- The console's messages and people searches find, as the waitlist's does
-- (migration 0025), the rows where a text starts with what is typed, letter
-- case ignored: the address, its domain (after the '@'), a contact
-- message's first or last name, a profile's full name or its last word
-- (after its last space). Each is a range of an index on the expression
-- the search compares, however many rows there are. The address's index
-- is the existing one on e-mail on SQLite, a byte-ordered one on
-- PostgreSQL (COLLATE "C", so that a prefix is one range whatever the
-- database's collation), as are the others there. The last word is
-- written with replace and rtrim, which both engines have: rtrim strips
-- the trailing characters that are not spaces (the last word), and
-- replace takes what is left off the front of the name.
-- on sqlite
CREATE INDEX contact_messages_domain ON contact_messages (substr(email, instr(email, '@') + 1));
CREATE INDEX contact_messages_first_name ON contact_messages (lower(first_name));
CREATE INDEX contact_messages_last_name ON contact_messages (lower(last_name));
CREATE INDEX users_domain ON users (substr(email, instr(email, '@') + 1));
CREATE INDEX profiles_full_name ON profiles (lower(full_name));
CREATE INDEX profiles_last_word ON profiles (lower(replace(full_name, rtrim(full_name, replace(full_name, ' ', '')), '')));
-- on postgres
CREATE INDEX contact_messages_email_bytes ON contact_messages ((email COLLATE "C"));
CREATE INDEX contact_messages_domain ON contact_messages ((split_part(email, '@', 2) COLLATE "C"));
CREATE INDEX contact_messages_first_name ON contact_messages ((lower(first_name) COLLATE "C"));
CREATE INDEX contact_messages_last_name ON contact_messages ((lower(last_name) COLLATE "C"));
CREATE INDEX users_email_bytes ON users ((email COLLATE "C"));
CREATE INDEX users_domain ON users ((split_part(email, '@', 2) COLLATE "C"));
CREATE INDEX profiles_full_name ON profiles ((lower(full_name) COLLATE "C"));
CREATE INDEX profiles_last_word ON profiles ((lower(replace(full_name, rtrim(full_name, replace(full_name, ' ', '')), '')) COLLATE "C"));
