package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
	"salaula/internal/testproc"
)

// openEmpty opens a fresh, unmigrated database of the engine.
func openEmpty(t *testing.T, engine store.Dialect) (*store.DB, string, string) {
	t.Helper()
	var url, dir string
	if engine == store.Postgres {
		url = storetest.NewPostgresDatabase(t)
	} else {
		dir = t.TempDir()
	}
	db, err := store.Open(context.Background(), url, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, url, dir
}

func TestMigrationsAreListedInFileOrder(t *testing.T) {
	list, err := store.Migrations()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) < 4 || list[0].Name != "0001_accounts.sql" || list[0].Version != 100 || list[1].Name != "0002_auth.sql" || list[1].Version != 200 {
		t.Fatalf("migrations = %+v", list)
	}
	for i := 1; i < len(list); i++ {
		if list[i].Name <= list[i-1].Name || list[i].Version <= list[i-1].Version {
			t.Fatalf("out of order: %+v then %+v", list[i-1], list[i])
		}
	}
}

// Instances starting at once on one PostgreSQL migrate one after the other.
func TestConcurrentMigrationsDoNotCollide(t *testing.T) {
	ctx := context.Background()
	url := storetest.NewPostgresDatabase(t)
	const n = 4
	var wg sync.WaitGroup
	errs := make([]error, n)
	applied := make([][]string, n)
	for i := range n {
		db, err := store.Open(ctx, url, "")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			applied[i], errs[i] = db.Migrate(ctx)
		}()
	}
	wg.Wait()
	list, _ := store.Migrations()
	total := 0
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("instance %d: %v", i, errs[i])
		}
		total += len(applied[i])
	}
	if total != len(list) {
		t.Fatalf("%d migrations applied in all, want each of %d once", total, len(list))
	}
}

// Migration 0019 makes waitlist_signups again without the unique index on
// the unsubscribe token hash: every sign-up stays as it was, links made
// before it still find theirs by the hash, (e-mail, program) stays unique,
// and a hash may now repeat.
func TestMigration0019KeepsEverySignUp(t *testing.T) {
	for _, engine := range []store.Dialect{store.SQLite, store.Postgres} {
		t.Run(string(engine), func(t *testing.T) {
			ctx := context.Background()
			db, _, _ := openEmpty(t, engine)
			if err := db.MigrateUpTo(ctx, 1800); err != nil {
				t.Fatal(err)
			}
			created := store.Now().Add(-time.Hour)
			for i, email := range []string{"a@example.com", "b@example.com"} {
				var unsub any
				if i == 1 {
					unsub = created.Add(time.Minute)
				}
				if _, err := db.Exec(ctx, `INSERT INTO waitlist_signups (id, email, program, page_path, referrer, utm_source, utm_medium,
					utm_campaign, utm_term, utm_content, unsubscribe_token_hash, unsubscribed_at, created_at)
					VALUES (?, ?, 'Upcycling Initiative', '/impact', 'https://facebook.com/', 'facebook', 'social', 'launch', 't', 'c', ?, ?, ?)`,
					store.NewOrderedID(), email, "old-hash-"+email, unsub, created); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := db.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			a, err := db.WaitlistSignupByEmail(ctx, "a@example.com", "Upcycling Initiative")
			if err != nil || a.PagePath != "/impact" || a.Referrer != "https://facebook.com/" || a.UTMSource != "facebook" || a.UTMMedium != "social" ||
				a.UTMCampaign != "launch" || a.UTMTerm != "t" || a.UTMContent != "c" || a.UnsubscribeTokenHash != "old-hash-a@example.com" ||
				!a.CreatedAt.Equal(created) || a.UnsubscribedAt != nil {
				t.Fatalf("a sign-up after the migration: %+v, %v", a, err)
			}
			if b, err := db.WaitlistSignupByEmail(ctx, "b@example.com", "Upcycling Initiative"); err != nil || b.UnsubscribedAt == nil || !b.UnsubscribedAt.Equal(created.Add(time.Minute)) {
				t.Fatalf("an unsubscribed sign-up after the migration: %+v, %v", b, err)
			}
			if u, err := db.UnsubscribeWaitlist(ctx, "", "old-hash-a@example.com"); err != nil || u.ID != a.ID || u.UnsubscribedAt == nil {
				t.Fatalf("an old link after the migration: %+v, %v", u, err)
			}
			if _, err := db.Exec(ctx, `INSERT INTO waitlist_signups (id, email, program, unsubscribe_token_hash, created_at) VALUES (?, 'a@example.com', ?, 'x', ?)`,
				store.NewOrderedID(), store.ProgramCode("Upcycling Initiative"), created); !store.IsUniqueViolation(err) {
				t.Fatalf("a second (e-mail, program): %v, want a unique violation", err)
			}
			if _, err := db.Exec(ctx, `INSERT INTO waitlist_signups (id, email, program, unsubscribe_token_hash, created_at) VALUES (?, 'c@example.com', ?, 'old-hash-a@example.com', ?)`,
				store.NewOrderedID(), store.ProgramCode("Upcycling Initiative"), created); err != nil {
				t.Fatalf("a repeated token hash: %v", err)
			}
		})
	}
}

// Migration 0036 moves every place in line into its sign-up's row: the
// place, its code and credits are the same after it, a sign-up without a
// place has none, and a new sign-up joins behind them.
func TestMigration0036KeepsEveryPlaceInLine(t *testing.T) {
	for _, engine := range []store.Dialect{store.SQLite, store.Postgres} {
		t.Run(string(engine), func(t *testing.T) {
			ctx := context.Background()
			db, _, _ := openEmpty(t, engine)
			if err := db.MigrateUpTo(ctx, 3500); err != nil {
				t.Fatal(err)
			}
			created := store.Now().Add(-time.Hour)
			for i, id := range []string{"00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002", "00000000-0000-4000-8000-000000000003"} {
				if _, err := db.Exec(ctx, `INSERT INTO waitlist_signups (id, email, program, unsubscribe_token_hash, created_at)
					VALUES (?, ?, 'Upcycling Initiative', 'h', ?)`, id, id+"@example.com", created.Add(time.Duration(i)*time.Minute)); err != nil {
					t.Fatal(err)
				}
			}
			// s1 joined first, s2 second with one credited referral (key 2 - 10): ahead of s1; s3 has no place.
			if _, err := db.Exec(ctx, `INSERT INTO waitlist_line (signup_id, program, code, seq, credits, line_key, ip_hash, created_at)
				VALUES ('00000000-0000-4000-8000-000000000001', 'Upcycling Initiative', 'abcdefghij', 1, 0, 1, 'ip1', ?), ('00000000-0000-4000-8000-000000000002', 'Upcycling Initiative', 'bcdefghijk', 2, 1, -8, 'ip2', ?)`,
				created, created); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(ctx, `INSERT INTO waitlist_line_counts (program, lane, n, last_seq) VALUES ('Upcycling Initiative', 0, 2, 2)`); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			for _, want := range []store.LinePlace{{SignupID: "00000000-0000-4000-8000-000000000002", Code: "bcdefghijk", Position: 1, Credits: 1}, {SignupID: "00000000-0000-4000-8000-000000000001", Code: "abcdefghij", Position: 2}} {
				p, err := db.PlaceInLine(ctx, want.SignupID)
				if err != nil || p.Code != want.Code || p.Position != want.Position || p.Credits != want.Credits {
					t.Fatalf("place of %s = %+v, %v; want %+v", want.SignupID, p, err, want)
				}
			}
			if _, err := db.PlaceInLine(ctx, "00000000-0000-4000-8000-000000000003"); err == nil {
				t.Fatal("s3 has a place after the migration; it had none")
			}
			_, p, err := db.JoinWaitlistInLine(ctx, &store.WaitlistSignup{Email: "s4@example.com", Program: "Upcycling Initiative", UnsubscribeTokenHash: "h"},
				store.WaitlistJoin{}, store.LineEntry{Code: "cdefghijkm"}, store.ReferralRule{})
			if err != nil || p.Position != 3 {
				t.Fatalf("a new sign-up's place = %+v, %v; want 3", p, err)
			}
		})
	}
}

// Migration 0037 rewrites the times SQLite held as text (Go's form, with
// any zone and a monotonic clock reading) into microseconds since 1970:
// every one reads back as the same instant, and sorts among times written
// after it.
func TestMigration0037KeepsEveryTimeOnSQLite(t *testing.T) {
	ctx := context.Background()
	db, _, _ := openEmpty(t, store.SQLite)
	if err := db.MigrateUpTo(ctx, 3600); err != nil {
		t.Fatal(err)
	}
	cat := time.FixedZone("CAT", 2*3600)
	old := map[string]struct {
		text string
		want time.Time
	}{
		"a@example.com": {"2026-11-27 08:00:00.123456 +0000 UTC", time.Date(2026, 11, 27, 8, 0, 0, 123456000, time.UTC)},
		"b@example.com": {"2026-11-27 10:00:01.5 +0200 CAT m=+0.000123", time.Date(2026, 11, 27, 10, 0, 1, 500000000, cat)},
		"c@example.com": {"2026-11-27 08:00:02 +0000 UTC", time.Date(2026, 11, 27, 8, 0, 2, 0, time.UTC)},
	}
	for email, o := range old {
		if _, err := db.Exec(ctx, `INSERT INTO waitlist_signups (id, email, program, unsubscribe_token_hash, created_at, unsubscribed_at)
			VALUES (?, ?, 'Upcycling Initiative', 'h', ?, ?)`, "id-"+email, email, o.text, o.text); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if n := storetest.Count(t, db, `SELECT COUNT(*) FROM waitlist_signups WHERE typeof(created_at) <> 'integer' OR typeof(unsubscribed_at) <> 'integer'`); n != 0 {
		t.Fatalf("%d sign-ups still hold a time as text", n)
	}
	for email, o := range old {
		s, err := db.WaitlistSignupByEmail(ctx, email, "Upcycling Initiative")
		if err != nil || !s.CreatedAt.Equal(o.want) || s.UnsubscribedAt == nil || !s.UnsubscribedAt.Equal(o.want) {
			t.Fatalf("%s after the migration: %+v, %v; want the time %v", email, s, err, o.want)
		}
	}
	if _, err := db.Exec(ctx, `INSERT INTO waitlist_signups (id, email, program, unsubscribe_token_hash, created_at)
		VALUES ('id-d', 'd@example.com', 'Upcycling Initiative', 'h', ?)`, time.Date(2026, 11, 27, 8, 0, 1, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	var order []string
	rows, err := db.Query(ctx, `SELECT email FROM waitlist_signups ORDER BY created_at`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var e string
		rows.Scan(&e)
		order = append(order, e)
	}
	if want := []string{"a@example.com", "d@example.com", "b@example.com", "c@example.com"}; !slices.Equal(order, want) {
		t.Fatalf("order by time = %v, want %v", order, want)
	}
}

// Migration 0039 rebuilds SQLite's outbox without a rowid and keeps only
// e-mails with a next attempt in the due index, and migration 0043 moves
// the sent ones' records to sent_emails: every e-mail, in every state,
// reads back as it was (a sent one without its id and attempts), the due ones are
// still claimed, and each state is counted.
func TestMigrations0039And0043KeepEveryEmail(t *testing.T) {
	for _, engine := range []store.Dialect{store.SQLite, store.Postgres} {
		t.Run(string(engine), func(t *testing.T) {
			ctx := context.Background()
			db, _, _ := openEmpty(t, engine)
			if err := db.MigrateUpTo(ctx, 3800); err != nil {
				t.Fatal(err)
			}
			now := store.Now()
			due, sent := now.Add(-time.Minute), now.Add(-time.Hour)
			later := now.Add(time.Hour)
			before := []store.OutboxEmail{
				{ID: "00000000-0000-4000-8000-000000000001", To: "queued@example.com", Subject: "Queued", Body: "b1", Kind: "waitlist", Status: store.EmailQueued,
					ListUnsubscribe: "https://example.com/u", NextAttemptAt: &due, CreatedAt: due},
				{ID: "00000000-0000-4000-8000-000000000002", To: "failing@example.com", Subject: "Failing", Body: "b2", Kind: "signup", Status: store.EmailFailing,
					Attempts: 2, LastError: "451 try later", NextAttemptAt: &later, CreatedAt: sent},
				{ID: "00000000-0000-4000-8000-000000000003", To: "sent@example.com", Subject: "Sent", Body: "b3", Kind: "waitlist", Status: store.EmailSent, Via: "smtp",
					ListUnsubscribe: "https://example.com/u3", Attempts: 2, SentAt: &due, CreatedAt: sent},
				{ID: "00000000-0000-4000-8000-000000000004", To: "failed@example.com", Subject: "Failed", Body: "b4", Kind: "recovery", Status: store.EmailFailed,
					Attempts: 5, LastError: "550 no such user", CreatedAt: sent},
			}
			for _, e := range before {
				if _, err := db.Exec(ctx, `INSERT INTO outbox_emails (id, to_address, subject, body, kind, status, sent_via, attempts, last_error,
					next_attempt_at, sent_at, created_at, list_unsubscribe) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, e.ID, e.To, e.Subject,
					e.Body, e.Kind, e.Status, e.Via, e.Attempts, e.LastError, e.NextAttemptAt, e.SentAt, e.CreatedAt, e.ListUnsubscribe); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := db.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			for _, want := range before {
				got, err := db.EmailsTo(ctx, want.To, 10)
				if err != nil || len(got) != 1 {
					t.Fatalf("e-mails to %s: %d, %v", want.To, len(got), err)
				}
				g := got[0]
				if want.Status == store.EmailSent {
					want.ID, want.Attempts = "", 0 // a sent e-mail's record has neither (migration 0043)
				}
				if g.ID != want.ID || g.Subject != want.Subject || g.Body != want.Body || g.Kind != want.Kind || g.Status != want.Status ||
					g.Via != want.Via || g.Attempts != want.Attempts || g.LastError != want.LastError || g.ListUnsubscribe != want.ListUnsubscribe ||
					!sameTime(g.NextAttemptAt, want.NextAttemptAt) || !sameTime(g.SentAt, want.SentAt) || !g.CreatedAt.Equal(want.CreatedAt) {
					t.Errorf("after the migration %+v; want %+v", g, want)
				}
			}
			claimed, err := db.ClaimEmails(ctx, now, time.Minute, 10)
			if err != nil || len(claimed) != 1 || claimed[0].ID != "00000000-0000-4000-8000-000000000001" {
				t.Fatalf("claimed %+v, %v; want the queued one alone", claimed, err)
			}
			if counts, err := db.OutboxCounts(ctx); err != nil || !maps.Equal(counts, map[string]int{"queued": 1, "failing": 1, "sent": 1, "failed": 1}) {
				t.Fatalf("counts %v, %v", counts, err)
			}
			if n := storetest.Count(t, db, `SELECT COUNT(*) FROM outbox_emails WHERE status = 'sent'`); n != 0 {
				t.Fatalf("%d sent e-mails left in the outbox", n)
			}
		})
	}
}

// sameTime reports whether two optional times are both absent or the same
// instant.
func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

// Migration 0040 turns the sign-ups' and the outbox's ids, and the columns
// naming them, into uuid on PostgreSQL: a sign-up, its referral and its
// e-mail stored before read back by the same ids after.
func TestMigration0040KeepsEveryIdOnPostgres(t *testing.T) {
	ctx := context.Background()
	db, _, _ := openEmpty(t, store.Postgres)
	if err := db.MigrateUpTo(ctx, 3900); err != nil {
		t.Fatal(err)
	}
	owner, friend, email := store.NewOrderedID(), store.NewOrderedID(), store.NewOrderedID()
	at := store.Now().Add(-time.Hour)
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO waitlist_signups (id, email, program, unsubscribe_token_hash, created_at) VALUES (?, 'owner@example.com', 'Upcycling Initiative', 'h1', ?),
			(?, 'friend@example.com', 'Upcycling Initiative', 'h2', ?)`, []any{owner, at, friend, at.Add(time.Minute)}},
		{`INSERT INTO waitlist_referrals (signup_id, referrer_id, program, credited, created_at) VALUES (?, ?, 'Upcycling Initiative', 1, ?)`,
			[]any{friend, owner, at.Add(time.Minute)}},
		{`INSERT INTO outbox_emails (id, to_address, subject, body, kind, sent_via, created_at, status) VALUES (?, 'owner@example.com', 'Hi', '', 'waitlist', '', ?, 'failed')`,
			[]any{email, at}},
		{`INSERT INTO announcement_deliveries (announcement_id, signup_id, email_id, unsubscribe_token_hash) VALUES ('a1', ?, ?, 'th')`, []any{owner, email}},
	} {
		if _, err := db.Exec(ctx, q.sql, q.args...); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if su, err := db.WaitlistSignupByID(ctx, owner); err != nil || su.ID != owner || su.Email != "owner@example.com" {
		t.Fatalf("sign-up %+v, %v", su, err)
	}
	if refs, err := db.ReferralsOf(ctx, owner, 10); err != nil || len(refs) != 1 || refs[0].SignupID != friend || refs[0].Email != "friend@example.com" {
		t.Fatalf("referrals %+v, %v", refs, err)
	}
	if sent, err := db.EmailsTo(ctx, "owner@example.com", 10); err != nil || len(sent) != 1 || sent[0].ID != email {
		t.Fatalf("e-mails %+v, %v", sent, err)
	}
	if err := db.AnnouncementDelivery(ctx, "a1", owner, "th"); err != nil {
		t.Fatalf("delivery: %v", err)
	}
}

// TestWaitlistRollUpMigrationCountsExistingSignUps stores sign-ups as a
// database had them before migration 0014 (program names; on SQLite times
// as Go's text form, until migration 0037) and migrates: the overview's
// roll-ups count each program's subscribed and unsubscribed sign-ups and
// each day's, from the rows that were there.
func TestWaitlistRollUpMigrationCountsExistingSignUps(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			ctx := context.Background()
			db, _, _ := openEmpty(t, engine)
			if err := db.MigrateUpTo(ctx, 1300); err != nil {
				t.Fatal(err)
			}
			programs := []string{"Upcycling Initiative", "Wardrobe Clearance Program"}
			wantTotals := map[string]store.WaitlistTally{}
			wantDays := map[string]map[string]int{}
			now := store.Now()
			for i := range 30 {
				program, created := programs[i%2], now.AddDate(0, 0, -i*4)
				var at, unsub any = created, nil
				if engine == store.SQLite {
					at = created.String()
				}
				tally := wantTotals[program]
				if i%4 == 0 {
					unsub = at
					tally.Unsubscribed++
				} else {
					tally.Subscribed++
				}
				wantTotals[program] = tally
				day := created.UTC().Format(time.DateOnly)
				if wantDays[day] == nil {
					wantDays[day] = map[string]int{}
				}
				wantDays[day][program]++
				if _, err := db.Exec(ctx, `INSERT INTO waitlist_signups (id, email, program, page_path, referrer, utm_source,
					utm_medium, utm_campaign, utm_term, utm_content, unsubscribe_token_hash, unsubscribed_at, created_at)
					VALUES (?, ?, ?, '/', '', 'facebook', '', 'launch', '', '', ?, ?, ?)`, store.NewID(), fmt.Sprintf("old%d@example.com", i),
					program, fmt.Sprintf("oldhash%d", i), unsub, at); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := db.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			totals, err := db.WaitlistByProgram(ctx)
			if err != nil || !maps.Equal(totals, wantTotals) {
				t.Errorf("totals %v (%v), want %v", totals, err, wantTotals)
			}
			days, err := db.WaitlistPerDay(ctx, now.AddDate(0, 0, -200).UTC().Format(time.DateOnly))
			if err != nil || !maps.EqualFunc(days, wantDays, maps.Equal) {
				t.Errorf("days %v (%v), want %v", days, err, wantDays)
			}
			// Each sign-up reads back with its own program (migration 0042
			// keeps it as a code).
			for i, program := range programs {
				var emails []string
				err := db.EachWaitlistSignup(ctx, program, func(s *store.WaitlistSignup) error {
					if s.Program != program {
						return fmt.Errorf("%s has program %q", s.Email, s.Program)
					}
					emails = append(emails, s.Email)
					return nil
				})
				if err != nil || len(emails) != 15 || !slices.Contains(emails, fmt.Sprintf("old%d@example.com", i)) {
					t.Errorf("%s: %v (%v)", program, emails, err)
				}
			}
		})
	}
}

// Migration 0042 keeps a sign-up's program as a code: sign-ups stored with
// the names read back field for field after it, each in its own program,
// with their places in line, and an address still signs up once per
// program.
func TestMigration0042KeepsEverySignUp(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			ctx := context.Background()
			db, _, _ := openEmpty(t, engine)
			if err := db.MigrateUpTo(ctx, 4100); err != nil {
				t.Fatal(err)
			}
			created := store.Now().Add(-time.Hour)
			unsub := created.Add(time.Minute)
			before := []store.WaitlistSignup{
				{ID: "00000000-0000-4000-8000-000000000001", Email: "a@example.com", Program: "Upcycling Initiative", PagePath: "/impact",
					Referrer: "https://wa.me/", UTMSource: "whatsapp", UTMMedium: "social", UTMCampaign: "launch", UTMTerm: "t", UTMContent: "c",
					UnsubscribeTokenHash: "h1", CreatedAt: created},
				{ID: "00000000-0000-4000-8000-000000000002", Email: "a@example.com", Program: "Wardrobe Clearance Program", PagePath: "/wardrobeclearance",
					UnsubscribeTokenHash: "h2", UnsubscribedAt: &unsub, CreatedAt: created.Add(time.Second)},
			}
			for i, s := range before {
				var code, seq any
				if s.UnsubscribedAt == nil {
					code, seq = "abcdefghij", 1
				}
				if _, err := db.Exec(ctx, `INSERT INTO waitlist_signups (id, email, program, page_path, referrer, utm_source, utm_medium,
					utm_campaign, utm_term, utm_content, unsubscribe_token_hash, unsubscribed_at, created_at, line_code, line_seq, line_key, ip_hash)
					VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, s.ID, s.Email, s.Program, s.PagePath, s.Referrer, s.UTMSource,
					s.UTMMedium, s.UTMCampaign, s.UTMTerm, s.UTMContent, s.UnsubscribeTokenHash, s.UnsubscribedAt, s.CreatedAt, code, seq, seq,
					fmt.Sprintf("ip%d", i)); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := db.Exec(ctx, `INSERT INTO waitlist_line_counts (program, lane, n, last_seq) VALUES ('Upcycling Initiative', 0, 1, 1)`); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			for _, want := range before {
				got, err := db.WaitlistSignupByEmail(ctx, want.Email, want.Program)
				if err != nil || got.ID != want.ID || got.Program != want.Program || got.PagePath != want.PagePath || got.Referrer != want.Referrer ||
					got.UTMSource != want.UTMSource || got.UTMMedium != want.UTMMedium || got.UTMCampaign != want.UTMCampaign ||
					got.UTMTerm != want.UTMTerm || got.UTMContent != want.UTMContent || got.UnsubscribeTokenHash != want.UnsubscribeTokenHash ||
					!sameTime(got.UnsubscribedAt, want.UnsubscribedAt) || !got.CreatedAt.Equal(want.CreatedAt) {
					t.Errorf("after the migration %+v, %v; want %+v", got, err, want)
				}
			}
			p, err := db.PlaceInLine(ctx, before[0].ID)
			if err != nil || p.Program != "Upcycling Initiative" || p.Position != 1 || p.Code != "abcdefghij" {
				t.Fatalf("place after the migration: %+v, %v", p, err)
			}
			again := before[0]
			again.ID = ""
			if joined, err := db.JoinWaitlist(ctx, &again, store.WaitlistJoin{}); joined || err != nil {
				t.Fatalf("the same address and program again: joined %v, %v", joined, err)
			}
		})
	}
}

// sharedNumbers returns a database of the engine before migration 0045
// whose line holds three places, two with the same number (as writer
// lanes committing at once gave them), in the line's order ids[0..2].
func sharedNumbers(t *testing.T, engine store.Dialect) (*store.DB, []string) {
	t.Helper()
	ctx := context.Background()
	db, _, _ := openEmpty(t, engine)
	if err := db.MigrateUpTo(ctx, 4400); err != nil {
		t.Fatal(err)
	}
	ids := []string{"00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002", "00000000-0000-4000-8000-000000000003"}
	for i, seq := range []int{1, 2, 2} {
		if _, err := db.Exec(ctx, `INSERT INTO waitlist_signups (id, email, program, unsubscribe_token_hash, created_at, line_code, line_seq, line_key)
			VALUES (?, ?, 1, ?, ?, ?, ?, ?)`, ids[i], fmt.Sprintf("m%d@example.com", i), fmt.Sprint(i), store.Now(),
			fmt.Sprintf("migrate%03d", i), seq, seq); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(ctx, `INSERT INTO waitlist_line_counts (program, lane, n, last_seq)
		VALUES ('Upcycling Initiative', 0, 2, 2), ('Upcycling Initiative', 1, 1, 2)`); err != nil {
		t.Fatal(err)
	}
	return db, ids
}

// numberedApart checks that the places ids hold places 1 to 3 in that
// order with a number each, and that the next sign-up is told place 4
// and holds it.
func numberedApart(t *testing.T, db *store.DB, ids []string) {
	t.Helper()
	ctx := context.Background()
	for i, id := range ids {
		if p, err := db.PlaceInLine(ctx, id); err != nil || p.Position != i+1 {
			t.Fatalf("%s: %+v, %v; want place %d", id, p, err, i+1)
		}
	}
	if n := storetest.Count(t, db, `SELECT COUNT(DISTINCT line_seq) FROM waitlist_signups`); n != 3 {
		t.Fatalf("%d numbers for 3 places", n)
	}
	last := join(t, db, "next@example.com", "migrate004", "")
	if p, err := db.PlaceInLine(ctx, last.SignupID); last.Position != 4 || err != nil || p.Position != 4 {
		t.Fatalf("the next sign-up was told %+v and holds %+v, %v; want 4", last, p, err)
	}
}

// Migration 0045 numbers apart the places writer lanes gave the same
// number: the line keeps its order, the next sign-up is told the place
// after them all and holds it.
func TestMigration0045NumbersPlacesApart(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			db, ids := sharedNumbers(t, engine)
			if _, err := db.Migrate(context.Background()); err != nil {
				t.Fatal(err)
			}
			numberedApart(t, db, ids)
		})
	}
}

// An archive made before migration 0045, with places sharing a number and
// the line counters of then, loads into either engine numbered apart.
func TestLoadNumbersAnOldArchivesPlacesApart(t *testing.T) {
	for _, from := range storetest.Engines {
		old, ids := sharedNumbers(t, from)
		d := dump(t, old)
		for _, to := range storetest.Engines {
			t.Run(string(from)+" into "+string(to), func(t *testing.T) {
				db := storetest.Open(t, to)
				d.t = 0
				if _, err := db.Load(context.Background(), d, d.counts()); err != nil {
					t.Fatal(err)
				}
				numberedApart(t, db, ids)
			})
		}
	}
}

// A database user that may not create tables in the public schema (the
// default on PostgreSQL 15 for a database it does not own) is told the fix.
func TestMigrateWithoutCreateOnPublicNamesTheFix(t *testing.T) {
	testproc.SkipShort(t, "PostgreSQL")
	admin, err := sql.Open("pgx", storetest.DefaultAdminURL)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	ctx := context.Background()
	role := fmt.Sprintf("salaula_norights_%d", time.Now().UnixNano())
	if _, err := admin.ExecContext(ctx, "CREATE ROLE "+role+" LOGIN"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.ExecContext(context.Background(), "DROP ROLE IF EXISTS "+role) })
	dbURL := storetest.NewPostgresDatabase(t)
	owner, err := sql.Open("pgx", dbURL)
	if err != nil {
		t.Fatal(err)
	}
	_, err = owner.ExecContext(ctx, "REVOKE CREATE ON SCHEMA public FROM PUBLIC")
	owner.Close()
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.User(role)
	db, err := store.Open(ctx, u.String(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, err = db.Migrate(ctx)
	if err == nil || !strings.Contains(err.Error(), "permission denied for schema public") || !strings.Contains(err.Error(), "createdb -O USER NAME") {
		t.Fatalf("migrate as a user without CREATE on public: %v", err)
	}
}
