package store_test

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// memDump keeps a dump as the archive does (JSON) and reads it back.
type memDump struct {
	tables []string
	cols   [][]string
	rows   [][]string // JSON of each row, per table
	t, r   int
}

func (m *memDump) Table(t store.DumpTable) error {
	m.tables, m.cols, m.rows = append(m.tables, t.Name), append(m.cols, t.Columns), append(m.rows, nil)
	return nil
}

func (m *memDump) Row(v []any) error {
	b, err := json.Marshal(v)
	m.rows[len(m.rows)-1] = append(m.rows[len(m.rows)-1], string(b))
	return err
}

func (m *memDump) NextTable() (string, []string, error) {
	if m.t >= len(m.tables) {
		return "", nil, io.EOF
	}
	m.t, m.r = m.t+1, 0
	return m.tables[m.t-1], m.cols[m.t-1], nil
}

func (m *memDump) NextRow() ([]any, error) {
	rows := m.rows[m.t-1]
	if m.r >= len(rows) {
		return nil, io.EOF
	}
	m.r++
	d := json.NewDecoder(strings.NewReader(rows[m.r-1]))
	d.UseNumber()
	var v []any
	return v, d.Decode(&v)
}

func (m *memDump) counts() map[string]int64 {
	c := map[string]int64{}
	for i, t := range m.tables {
		c[t] = int64(len(m.rows[i]))
	}
	return c
}

func dump(t *testing.T, db *store.DB) *memDump {
	t.Helper()
	m := &memDump{}
	if err := db.Dump(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	return m
}

// A dump of SQLite loads into PostgreSQL and back into SQLite: every row
// the same, timestamps and booleans in each engine's own form (the raw
// text in SQLite as the store itself writes it).
func TestDumpLoadsIntoTheOtherEngineAndBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := storetest.Open(t, store.SQLite)
	confirmed := store.Now().Add(-time.Hour)
	for _, u := range []*store.User{{Email: "a@example.com", PasswordHash: "h", IsAdmin: true, EmailConfirmedAt: &confirmed},
		{Email: "b@example.com", PasswordHash: "h", UserMetadata: `{"full_name":"Bwalya \"B\" Mwape"}`}} {
		if err := src.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	first := dump(t, src)
	if first.counts()["users"] != 2 || first.tables[0] == "sessions" {
		t.Fatalf("dump: %v, tables %v", first.counts(), first.tables)
	}
	pg := storetest.Open(t, store.Postgres)
	if _, err := pg.Load(ctx, first, first.counts()); err != nil {
		t.Fatalf("load into PostgreSQL: %v", err)
	}
	var isAdmin bool
	var at time.Time
	if err := pg.QueryRow(ctx, `SELECT is_admin, email_confirmed_at FROM users WHERE email = 'a@example.com'`).Scan(&isAdmin, &at); err != nil ||
		!isAdmin || !at.Equal(confirmed) {
		t.Fatalf("PostgreSQL row: admin %v, confirmed %v (%v), want true and %v", isAdmin, at, err, confirmed)
	}
	back := storetest.Open(t, store.SQLite)
	second := dump(t, pg)
	if _, err := back.Load(ctx, second, second.counts()); err != nil {
		t.Fatalf("load back into SQLite: %v", err)
	}
	third := dump(t, back)
	for i, name := range first.tables {
		if strings.Join(first.rows[i], "\n") != strings.Join(third.rows[slices.Index(third.tables, name)], "\n") {
			t.Errorf("table %s differs after the round trip:\n%v\n%v", name, first.rows[i], third.rows[slices.Index(third.tables, name)])
		}
	}
	raw := func(db *store.DB) string {
		var s string
		if err := db.QueryRow(ctx, `SELECT CAST(created_at AS TEXT) FROM users WHERE email = 'b@example.com'`).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	if raw(src) != raw(back) {
		t.Errorf("SQLite stores created_at as %q after the round trip, %q as the store writes it", raw(back), raw(src))
	}
	u, err := back.UserByEmail(ctx, "b@example.com")
	if err != nil || u.UserMetadata != `{"full_name":"Bwalya \"B\" Mwape"}` {
		t.Fatalf("the store reads the loaded row: %+v %v", u, err)
	}
}

// Load refuses what does not fit, and leaves nothing behind: a row count
// unlike the archive's, a table or a column the schema lacks.
func TestLoadRefusesADumpThatDoesNotFit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		good := &memDump{tables: []string{"users"}, cols: [][]string{{"id", "email", "password_hash", "created_at", "updated_at"}},
			rows: [][]string{{`["u1","a@example.com","h","2026-11-27T08:00:00Z","2026-11-27T08:00:00Z"]`}}}
		for _, c := range []struct {
			name string
			d    *memDump
			want map[string]int64
			err  string
		}{
			{"count", good, map[string]int64{"users": 2}, "has 1 rows, the archive says 2"},
			{"table", &memDump{tables: []string{"no_such_table"}, cols: [][]string{{"id"}}, rows: [][]string{nil}}, nil, "not in this database's schema"},
			{"column", &memDump{tables: []string{"users"}, cols: [][]string{{"id", "shoe_size"}}, rows: [][]string{nil}}, nil, "users.shoe_size is not in"},
			{"value", &memDump{tables: []string{"users"}, cols: [][]string{{"id", "created_at"}}, rows: [][]string{{`["u2", 12]`}}}, nil, "created_at"},
		} {
			c.d.t, c.d.r = 0, 0
			if _, err := db.Load(ctx, c.d, c.want); err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %v, want an error saying %q", c.name, err, c.err)
			}
			if n := storetest.Count(t, db, `SELECT COUNT(*) FROM users`); n != 0 {
				t.Errorf("%s: %d users left behind", c.name, n)
			}
		}
	})
}

// An archive made before the place in line moved into the sign-up's row
// (a waitlist_line table) restores with every place where it is kept now;
// one whose line table holds fewer rows than it says restores nothing.
func TestLoadMovesAnOldArchivesLineIntoTheSignups(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		old := func(lineRows ...string) *memDump {
			return &memDump{
				tables: []string{"waitlist_line", "waitlist_signups"},
				cols: [][]string{{"signup_id", "program", "code", "seq", "credits", "line_key", "ip_hash", "created_at"},
					{"id", "email", "program", "unsubscribe_token_hash", "created_at"}},
				rows: [][]string{lineRows, {
					`["00000000-0000-4000-8000-000000000001","a@example.com","Upcycling Initiative","h1","2026-11-27T08:00:00Z"]`,
					`["00000000-0000-4000-8000-000000000002","b@example.com","Upcycling Initiative","h2","2026-11-27T08:01:00Z"]`}},
			}
		}
		short := old(`["00000000-0000-4000-8000-000000000001","Upcycling Initiative","abcdefghij",1,0,1,"ip1","2026-11-27T08:00:00Z"]`)
		if _, err := db.Load(ctx, short, map[string]int64{"waitlist_line": 2, "waitlist_signups": 2}); err == nil ||
			!strings.Contains(err.Error(), "waitlist_line has 1 rows, the archive says 2") {
			t.Fatalf("load of a short line: %v", err)
		}
		if n := storetest.Count(t, db, `SELECT COUNT(*) FROM waitlist_signups`); n != 0 {
			t.Fatalf("%d sign-ups left behind", n)
		}
		full := old(`["00000000-0000-4000-8000-000000000001","Upcycling Initiative","abcdefghij",1,0,1,"ip1","2026-11-27T08:00:00Z"]`,
			`["00000000-0000-4000-8000-000000000002","Upcycling Initiative","bcdefghijk",2,1,-8,"ip2","2026-11-27T08:01:00Z"]`)
		if _, err := db.Load(ctx, full, full.counts()); err != nil {
			t.Fatal(err)
		}
		p, err := db.PlaceInLine(ctx, "00000000-0000-4000-8000-000000000002")
		if err != nil || p.Position != 1 || p.Code != "bcdefghijk" || p.Credits != 1 || p.Program != "Upcycling Initiative" {
			t.Fatalf("place of s2 = %+v, %v; want the front of Upcycling Initiative, its code and one credit", p, err)
		}
		if p, err := db.PlaceInLine(ctx, "00000000-0000-4000-8000-000000000001"); err != nil || p.Position != 2 || p.Code != "abcdefghij" {
			t.Fatalf("place of s1 = %+v, %v; want second", p, err)
		}
		// The archive's program names become the sign-ups' codes (migration
		// 0042); a name that is no program restores nothing.
		unknown := &memDump{tables: []string{"waitlist_signups"}, cols: [][]string{{"id", "email", "program", "unsubscribe_token_hash", "created_at"}},
			rows: [][]string{{`["00000000-0000-4000-8000-000000000003","c@example.com","Knitting Circle","h3","2026-11-27T08:02:00Z"]`}}}
		other := storetest.Open(t, db.Dialect())
		if _, err := other.Load(ctx, unknown, unknown.counts()); err == nil || !strings.Contains(err.Error(), `"Knitting Circle" is not a waitlist program`) {
			t.Fatalf("load of an unknown program: %v", err)
		}
		if n := storetest.Count(t, other, `SELECT COUNT(*) FROM waitlist_signups`); n != 0 {
			t.Fatalf("%d sign-ups stored from an archive with an unknown program", n)
		}
	})
}

// An archive made before sent e-mails left the outbox (migration 0043)
// restores each sent one as its record and keeps the others in the outbox.
func TestLoadMovesAnOldArchivesSentEmailsToTheirRecords(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		old := &memDump{tables: []string{"outbox_emails"},
			cols: [][]string{{"id", "to_address", "subject", "body", "kind", "sent_via", "created_at", "status", "attempts", "next_attempt_at",
				"sent_at", "last_error", "list_unsubscribe"}},
			rows: [][]string{{
				`["00000000-0000-4000-8000-000000000001","sent@example.com","Welcome","b1","waitlist","smtp","2026-11-27T08:00:00Z","sent",2,null,"2026-11-27T08:05:00Z","","https://example.com/u1"]`,
				`["00000000-0000-4000-8000-000000000002","queued@example.com","Reset","b2","recovery","","2026-11-27T08:01:00Z","queued",0,"2026-11-27T08:01:00Z",null,"",""]`}}}
		if _, err := db.Load(ctx, old, old.counts()); err != nil {
			t.Fatal(err)
		}
		sent, err := db.EmailsTo(ctx, "sent@example.com", 5)
		at := time.Date(2026, 11, 27, 8, 5, 0, 0, time.UTC)
		if err != nil || len(sent) != 1 || sent[0].ID != "" || sent[0].Status != store.EmailSent || sent[0].Body != "b1" ||
			sent[0].ListUnsubscribe != "https://example.com/u1" || sent[0].SentAt == nil || !sent[0].SentAt.Equal(at) || sent[0].Via != "smtp" {
			t.Fatalf("the sent e-mail after the load: %+v, %v", sent, err)
		}
		if counts, err := db.OutboxCounts(ctx); err != nil || counts["sent"] != 1 || counts["queued"] != 1 || len(counts) != 2 {
			t.Fatalf("counts %v, %v", counts, err)
		}
		if n := storetest.Count(t, db, `SELECT COUNT(*) FROM outbox_emails WHERE status = 'sent'`); n != 0 {
			t.Fatalf("%d sent e-mails left in the outbox", n)
		}
		claimed, err := db.ClaimEmails(ctx, store.Now(), time.Minute, 10)
		if err != nil || len(claimed) != 1 || claimed[0].To != "queued@example.com" {
			t.Fatalf("claimed %+v, %v", claimed, err)
		}
	})
}
