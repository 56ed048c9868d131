-- (program, created_at, id) served the console's waitlist filtered by
-- program. There are two programs, each about half the sign-ups, and
-- (created_at, id, program) holds the program: a page of one program
-- reads that index in order and skips the other program's entries in it,
-- about twice a page's rows. The index cost every sign-up 113 bytes and
-- one more b-tree insert.
DROP INDEX waitlist_signups_program_created_id;
