package account

import (
	"bytes"
	"context"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"salaula/internal/media"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// The consent versions are the 'last updated' date the legal pages show.
func TestConsentVersionsMatchTheLegalPages(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../../web/src/config/constants.ts")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`LEGAL_LAST_UPDATED = '(\d\d)/(\d\d)/(\d{4})'`).FindStringSubmatch(string(src))
	if m == nil {
		t.Fatal("LEGAL_LAST_UPDATED not found in constants.ts")
	}
	shown := m[3] + "-" + m[2] + "-" + m[1] // dd/mm/yyyy on the page
	for _, v := range []string{TermsVersion, PrivacyVersion} {
		if v != shown {
			t.Fatalf("consent version %s; the pages say %s", v, shown)
		}
	}
}

func put(t *testing.T, m media.Store, db *store.DB, owner, path string, at time.Time) string {
	t.Helper()
	key := media.Key(media.Bucket, path)
	if _, err := m.Put(context.Background(), key, bytes.NewReader([]byte("x")), "image/jpeg"); err != nil {
		t.Fatal(err)
	}
	if err := db.RecordMediaObject(context.Background(), store.MediaObject{Key: key, ID: store.NewID(), OwnerID: owner, Size: 1, ContentType: "image/jpeg"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(context.Background(), `UPDATE media_objects SET created_at = ?, updated_at = ? WHERE object_key = ?`, at, at, key); err != nil {
		t.Fatal(err)
	}
	return key
}

// emailsIn lists the e-mail column of every row of table, sorted.
func emailsIn(t *testing.T, db *store.DB, table string) []string {
	t.Helper()
	rows, err := db.Query(context.Background(), `SELECT email FROM `+table+` ORDER BY email`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var e string
		if err := rows.Scan(&e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

func TestSweepKeepsOnlyWhatTheRetentionAllows(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		m, err := media.NewLocal(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
		r := &Rules{DB: db, Media: m, Now: func() time.Time { return now }}
		user := func(email string, created time.Time, confirmed bool) string {
			u := &store.User{Email: email, PasswordHash: "x", CreatedAt: created}
			if confirmed {
				u.EmailConfirmedAt = &created
			}
			if err := db.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
			return u.ID
		}
		oldUnconfirmed := user("old-unconfirmed@example.com", now.Add(-31*24*time.Hour), false)
		user("new-unconfirmed@example.com", now.Add(-29*24*time.Hour), false)
		keeper := user("old-confirmed@example.com", now.Add(-400*24*time.Hour), true)
		put(t, m, db, oldUnconfirmed, oldUnconfirmed+"/a.jpg", now.Add(-40*24*time.Hour))
		used := put(t, m, db, keeper, keeper+"/used.jpg", now.Add(-48*time.Hour))
		unused := put(t, m, db, keeper, keeper+"/unused.jpg", now.Add(-25*time.Hour))
		fresh := put(t, m, db, keeper, keeper+"/fresh.jpg", now.Add(-23*time.Hour))
		url := "https://salaula.example/storage/v1/object/public/" + used
		if err := db.UpsertProfile(ctx, &store.Profile{UserID: keeper, BodyPhotoURLs: []string{url}}); err != nil {
			t.Fatal(err)
		}
		// A sent e-mail's record is kept 30 days by default.
		var sent []store.OutboxEmail
		for _, at := range []time.Time{now.Add(-31 * 24 * time.Hour), now.Add(-29 * 24 * time.Hour)} {
			sent = append(sent, store.OutboxEmail{To: "x@example.com", Subject: "s", Body: "b", Kind: "k", Status: store.EmailSent, Via: "log",
				Attempts: 1, CreatedAt: at, SentAt: &at})
		}
		if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.ImportEmails(ctx, sent) }); err != nil {
			t.Fatal(err)
		}

		message := func(email string, at time.Time) {
			if err := db.CreateContactMessage(ctx, &store.ContactMessage{FirstName: "Chipo", LastName: "Banda", Email: email,
				Subject: "Other", Message: "Hello", CreatedAt: at}, nil); err != nil {
				t.Fatal(err)
			}
		}
		message("older@example.com", now.AddDate(-2, 0, -1))
		message("younger@example.com", now.AddDate(-2, 0, 1))
		message("recent@example.com", now.Add(-time.Hour))

		// With confirmation off, unconfirmed accounts are not swept.

		got, err := r.Sweep(ctx, DefaultRetention(false))
		if err != nil {
			t.Fatal(err)
		}
		// unused.jpg and the unconfirmed account's a.jpg; the 31-day-old
		// e-mail's record, and the 29-day-old one's body (kept 7 days).
		if got != (Swept{Accounts: 0, Uploads: 2, Emails: 1, Messages: 1, EmailBodies: 1}) {
			t.Fatalf("swept %+v", got)
		}
		got, err = r.Sweep(ctx, DefaultRetention(true))
		if err != nil {
			t.Fatal(err)
		}
		if got != (Swept{Accounts: 1, Uploads: 0, Emails: 0}) {
			t.Fatalf("second sweep %+v", got)
		}
		if emails := emailsIn(t, db, "users"); strings.Join(emails, " ") != "new-unconfirmed@example.com old-confirmed@example.com" {
			t.Fatalf("accounts left: %v", emails)
		}
		for key, want := range map[string]bool{used: true, fresh: true, unused: false, media.Key(media.Bucket, oldUnconfirmed+"/a.jpg"): false} {
			_, err := m.Stat(ctx, key)
			if (err == nil) != want || (err != nil && !errors.Is(err, media.ErrNotFound)) {
				t.Errorf("%s: stat err %v, want kept=%v", key, err, want)
			}
		}
		var objects int
		db.QueryRow(ctx, `SELECT COUNT(*) FROM media_objects`).Scan(&objects)
		var records int
		db.QueryRow(ctx, `SELECT COUNT(*) FROM sent_emails`).Scan(&records)
		if objects != 2 || records != 1 {
			t.Fatalf("media_objects %d (want 2), sent_emails %d (want 1)", objects, records)
		}
		if senders := emailsIn(t, db, "contact_messages"); strings.Join(senders, " ") != "recent@example.com younger@example.com" {
			t.Fatalf("contact messages left: %v (the one older than 2 years must go, the others stay)", senders)
		}
	})
}
