// Package consoletest fills a database with many records quickly, for the
// console's tests and benchmarks (paging, CSV streaming, query plans).
package consoletest

import (
	"context"
	"crypto/sha256"
	"fmt"
	"testing"
	"time"

	"salaula/internal/store"
	"salaula/internal/validate"
)

// SeedStart is the time of the first seeded record; record i is i seconds
// later, every third one sharing its predecessor's time so that paging must
// break ties by id.
var SeedStart = store.Now().Add(-80 * 24 * time.Hour).Truncate(time.Second)

// SeedWaitlist inserts n waitlist sign-ups (seed{i}@example.com, programs
// alternating, every tenth unsubscribed, sources from a few campaigns and
// referrers, one in fifty through another's personal link) in batches
// inside one transaction, and recounts the overview's waitlist roll-up.
func SeedWaitlist(tb testing.TB, db *store.DB, n int) {
	tb.Helper()
	ctx := context.Background()
	signups := make([]store.WaitlistSignup, n)
	var refs []store.ReferralImport
	for i := range signups {
		signups[i] = signup(i)
		// One in fifty came through the personal link of the sign-up two before (same program).
		if i%50 == 2 {
			refs = append(refs, store.ReferralImport{SignupID: signups[i].ID, ReferrerID: signups[i-2].ID, Program: signups[i].Program, At: signups[i].CreatedAt})
		}
	}
	err := db.InTx(ctx, func(tx *store.Tx) error {
		if err := tx.ImportWaitlist(ctx, signups, nil); err != nil {
			return err
		}
		if err := tx.ImportReferrals(ctx, refs); err != nil {
			return err
		}
		return store.RecountWaitlist(ctx, tx)
	})
	if err != nil {
		tb.Fatalf("seed %d waitlist sign-ups: %v", n, err)
	}
	// Fresh statistics, as autovacuum (PostgreSQL) or a long-running
	// database would have, so the planner sees the table's real size.
	if err := db.Analyze(ctx); err != nil {
		tb.Fatal(err)
	}
}

// signup is the i-th seeded sign-up.
func signup(i int) store.WaitlistSignup {
	at := seedTime(i)
	var unsub *time.Time
	if i%10 == 9 {
		u := at.Add(time.Hour)
		unsub = &u
	}
	return store.WaitlistSignup{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), Email: fmt.Sprintf("seed%06d@example.com", i),
		Program: validate.Programs[i%2], PagePath: []string{"/wardrobeclearance", "/impact"}[i%2],
		Referrer:  []string{"https://l.facebook.com/", "", "https://www.google.com/search?q=salaula", "https://wa.me/"}[i%4],
		UTMSource: []string{"facebook", "whatsapp", "", "instagram"}[i%4], UTMMedium: "social",
		UTMCampaign: []string{"launch", "radio"}[i%2], UnsubscribeTokenHash: fmt.Sprintf("seedhash%d", i),
		UnsubscribedAt: unsub, CreatedAt: at}
}

// Scale domains: a search for TenthDomain matches every tenth seeded
// address, one for HundredDomain a hundred of them, one for AbsentDomain
// none.
const (
	TenthDomain   = "tenth.example"
	HundredDomain = "hundred.example"
	AbsentDomain  = "absent.example"
)

// SeedScale inserts n waitlist sign-ups as Scale does, failing tb on an
// error.
func SeedScale(tb testing.TB, db *store.DB, n int) {
	tb.Helper()
	if err := Scale(context.Background(), db, n); err != nil {
		tb.Fatal(err)
	}
}

// Scale inserts n waitlist sign-ups as SeedWaitlist makes them, but at
// addresses a search can be timed on (every tenth at TenthDomain, a hundred
// at HundredDomain, the others at example.com), each with its confirmation
// e-mail, sent, its body and List-Unsubscribe cleared as the retention
// sweep leaves them, and each subscribed one with its place in line; in
// transactions of 10,000, then recounts the
// waitlist's roll-up and refreshes the planner's statistics. A million
// takes a few minutes. cmd/salaula-bench seeds its scale scenario with it.
func Scale(ctx context.Context, db *store.DB, n int) error {
	for start := 0; start < n; start += scaleChunk {
		end := min(start+scaleChunk, n)
		signups := make([]store.WaitlistSignup, 0, end-start)
		emails := make([]store.OutboxEmail, 0, end-start)
		places := make([]store.LineImport, 0, end-start)
		for i := start; i < end; i++ {
			s := signup(i)
			s.Email = ScaleEmail(i, n)
			// As a sign-up through the API has them: the first 32 hex
			// characters of the SHA-256 of its unsubscribe token, and
			// (while subscribed) a place in its program's line with a
			// 10-character link code and the 16-character hash of the
			// address it came from.
			s.UnsubscribeTokenHash = fmt.Sprintf("%x", sha256.Sum256([]byte(s.ID)))[:32]
			signups = append(signups, s)
			sent := s.CreatedAt
			emails = append(emails, store.OutboxEmail{ID: store.NewOrderedID(), To: s.Email, Subject: "You're on the Salaula waitlist",
				Kind: "waitlist", Status: store.EmailSent, Via: "smtp", Attempts: 1, SentAt: &sent, CreatedAt: s.CreatedAt})
			var place store.LineImport
			if s.UnsubscribedAt == nil {
				place = store.LineImport{Code: fmt.Sprintf("c%09d", i), IPHash: s.UnsubscribeTokenHash[:16], Seq: int64(i/2 + 1)}
			}
			places = append(places, place)
		}
		err := db.InTx(ctx, func(tx *store.Tx) error {
			if err := tx.ImportWaitlist(ctx, signups, places); err != nil {
				return err
			}
			return tx.ImportEmails(ctx, emails)
		})
		if err != nil {
			return fmt.Errorf("seed sign-ups %d to %d: %w", start, end, err)
		}
	}
	err := db.InTx(ctx, func(tx *store.Tx) error {
		if err := store.RecountWaitlist(ctx, tx); err != nil {
			return err
		}
		return store.RecountLine(ctx, tx)
	})
	if err != nil {
		return err
	}
	return db.Analyze(ctx)
}

// ScaleEmail is the address Scale gives sign-up i of n: every tenth at
// TenthDomain, a hundred at HundredDomain, the others at example.com.
func ScaleEmail(i, n int) string {
	every := max(n/100, 1)
	switch {
	case i%10 == 0:
		return fmt.Sprintf("seed%06d@%s", i, TenthDomain)
	case i%every == 1 && i/every < 100:
		return fmt.Sprintf("seed%06d@%s", i, HundredDomain)
	}
	return fmt.Sprintf("seed%06d@example.com", i)
}

// scaleFirstNames are the first names ScaleMessages and ScalePeople give,
// in turn.
var scaleFirstNames = []string{"Chipo", "Mwila", "Ruth", "Bwalya", "Natasha", "Mutale", "Kondwani", "Thandiwe"}

// ScaleLastName is the last name ScaleMessages and ScalePeople give record
// i, one of its own: a search for "banda00001" matches ten of them.
func ScaleLastName(i int) string { return fmt.Sprintf("Banda%06d", i) }

// scaleChunk is how many records a seeding transaction holds.
const scaleChunk = 10_000

// ScaleMessages inserts n open contact messages from the addresses Scale
// gives (ScaleEmail(i, n)), by first names in turn and ScaleLastName(i),
// subjects in turn, at the seeded times; in transactions of 10,000, then
// refreshes the planner's statistics.
func ScaleMessages(ctx context.Context, db *store.DB, n int) error {
	for start := 0; start < n; start += scaleChunk {
		end := min(start+scaleChunk, n)
		msgs := make([]store.ContactMessage, 0, end-start)
		for i := start; i < end; i++ {
			msgs = append(msgs, store.ContactMessage{ID: fmt.Sprintf("00000000-0000-4000-9000-%012d", i),
				FirstName: scaleFirstNames[i%len(scaleFirstNames)], LastName: ScaleLastName(i), Email: ScaleEmail(i, n),
				Subject: validate.ContactSubjects[i%len(validate.ContactSubjects)], Message: "A seeded message.", CreatedAt: seedTime(i)})
		}
		if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.ImportMessages(ctx, msgs) }); err != nil {
			return fmt.Errorf("seed messages %d to %d: %w", start, end, err)
		}
	}
	return db.Analyze(ctx)
}

// ScalePeople inserts n accounts at the addresses Scale gives
// (ScaleEmail(i, n)), with no password, all but every tenth (i%10 == 5)
// with a profile named a first name in turn and ScaleLastName(i), roles
// in turn, at the seeded times; in transactions of 10,000, then refreshes
// the planner's statistics.
func ScalePeople(ctx context.Context, db *store.DB, n int) error {
	for start := 0; start < n; start += scaleChunk {
		end := min(start+scaleChunk, n)
		users := make([]store.User, 0, end-start)
		profiles := make([]store.Profile, 0, end-start)
		for i := start; i < end; i++ {
			at := seedTime(i)
			u := store.User{ID: fmt.Sprintf("00000000-0000-4000-a000-%012d", i), Email: ScaleEmail(i, n), CreatedAt: at, UpdatedAt: at}
			users = append(users, u)
			if i%10 != 5 {
				role := validate.Roles[i%len(validate.Roles)]
				profiles = append(profiles, store.Profile{UserID: u.ID, Role: &role,
					FullName: scaleFirstNames[i%len(scaleFirstNames)] + " " + ScaleLastName(i), Location: "Lusaka", CreatedAt: at, UpdatedAt: at})
			}
		}
		if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.ImportPeople(ctx, users, profiles) }); err != nil {
			return fmt.Errorf("seed people %d to %d: %w", start, end, err)
		}
	}
	return db.Analyze(ctx)
}

// seedTime is the time of seeded record i (see SeedStart).
func seedTime(i int) time.Time { return SeedStart.Add(time.Duration(i-i%3/2) * time.Second) }
