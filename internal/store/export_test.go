package store

import (
	"context"
)

// MigrationStatements returns the statements of one embedded migration file,
// so tests can replay what the earlier migration runner did.
func MigrationStatements(name string) ([]string, error) {
	body, err := migrationFiles.ReadFile("migrations/" + name)
	if err != nil {
		return nil, err
	}
	return splitStatements(string(body)), nil
}

// MigrateUpTo applies the embedded migrations up to and including version
// (Migration.Version), so tests can put data in an older schema and then
// migrate it.
func (db *DB) MigrateUpTo(ctx context.Context, version int64) error {
	p, _, err := db.migrationProvider(ctx)
	if err != nil {
		return err
	}
	_, err = p.UpTo(ctx, version)
	return err
}

// Group is writes handed to the Writer together, as if their callers had
// all been waiting when it took them.
type Group struct{ writes []*write }

// Add adds a write whose caller's context is ctx.
func (g *Group) Add(ctx context.Context, fn func(*Tx) error) {
	g.writes = append(g.writes, newWrite(ctx, fn))
}

// AddStatement adds a write of one statement (DB.inStatement): query,
// written with '?' placeholders, and args; the first column of its row is
// read into into.
func (g *Group) AddStatement(ctx context.Context, into *string, query string, args ...any) {
	g.writes = append(g.writes, statementWrite(ctx, func(t *Tx) (string, []any, func(row) error) {
		return t.db.rebind(query), args, func(r row) error { return r.Scan(into) }
	}))
}

// Answered reports whether write i has been answered.
func (g *Group) Answered(i int) bool { return len(g.writes[i].answer) != 0 }

// Answer returns write i's answer: what it panicked with, or its error.
func (g *Group) Answer(i int) (any, error) {
	res := <-g.writes[i].answer
	return res.panic, res.err
}

// CommitGroup has the Writer commit g as one group.
func (db *DB) CommitGroup(g *Group) {
	l := db.writer.lanes[0]
	l.busy.Lock()
	defer l.busy.Unlock()
	l.commit(g.writes)
}

// WriterLanes is how many connections the Writer commits on.
func WriterLanes(db *DB) int { return len(db.writer.lanes) }

// WaitlistListSQL is the query ListWaitlist runs for f in the order o, so
// tests can read its plan.
func (db *DB) WaitlistListSQL(f WaitlistFilter, o ListOrder) (string, []any, error) {
	q := waitlistQuery(f, db.dialect)
	return q.sql(o)
}

// SearchSQL is the query the console's list ("waitlist", "messages" or
// "people") runs for a search of text in the order o, so tests can read
// its plan.
func (db *DB) SearchSQL(ctx context.Context, list, text string, o ListOrder) (string, []any, error) {
	q, s := waitlistQuery(WaitlistFilter{}, db.dialect), waitlistSearch
	switch list {
	case "messages":
		q, s = messageQuery(MessageFilter{}), messageSearch
	case "people":
		q, s = peopleQuery(PeopleFilter{}), peopleSearch
	}
	if _, err := db.search(ctx, &q, s, text); err != nil {
		return "", nil, err
	}
	return q.sql(o)
}

// DueEmailsSQL is the claim's query of the e-mails in status that are due
// (arguments: now, limit), so a test can read its plan.
func DueEmailsSQL(status string) string { return dueEmails(status, "") }
