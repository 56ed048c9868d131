package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// changeLog collects the changes a DB announces.
type changeLog struct {
	mu  sync.Mutex
	all []store.Change
}

func follow(t *testing.T, db *store.DB) *changeLog {
	t.Helper()
	l := &changeLog{}
	stop := db.OnChange(func(c store.Change) {
		l.mu.Lock()
		l.all = append(l.all, c)
		l.mu.Unlock()
	})
	t.Cleanup(stop)
	return l
}

// wait returns the first change pred accepts, failing after 3 s.
func (l *changeLog) wait(t *testing.T, what string, pred func(store.Change) bool) store.Change {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		l.mu.Lock()
		for _, c := range l.all {
			if pred(c) {
				l.mu.Unlock()
				return c
			}
		}
		got := append([]store.Change(nil), l.all...)
		l.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("no %s within 3 s; got %+v", what, got)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (l *changeLog) snapshot() []store.Change {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]store.Change(nil), l.all...)
}

func (l *changeLog) count(pred func(store.Change) bool) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, c := range l.all {
		if pred(c) {
			n++
		}
	}
	return n
}

func TestChangesAreAnnouncedAfterCommitWithoutSecrets(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		log := follow(t, db)
		s := &store.WaitlistSignup{Email: "mutale@example.com", Program: "Upcycling Initiative", UnsubscribeTokenHash: "secret-hash", UTMSource: "radio"}
		if _, err := db.JoinWaitlist(ctx, s, store.WaitlistJoin{}); err != nil {
			t.Fatal(err)
		}
		c := log.wait(t, "sign-up INSERT", func(c store.Change) bool { return c.Table == store.TableWaitlist && c.Type == "INSERT" })
		if c.Record["email"] != "mutale@example.com" || c.Record["id"] != s.ID || c.Record["program"] != "Upcycling Initiative" ||
			c.Record["utm_source"] != "radio" || c.Record["unsubscribed_at"] != nil {
			t.Fatalf("record = %v", c.Record)
		}
		if _, ok := c.Record["unsubscribe_token_hash"]; ok {
			t.Fatal("the unsubscribe token hash left the store")
		}
		if _, err := time.Parse(time.RFC3339Nano, c.Record["created_at"].(string)); err != nil {
			t.Fatalf("created_at = %v", c.Record["created_at"])
		}
		if time.Since(c.CommitTimestamp) > 5*time.Second {
			t.Fatalf("commit_timestamp %v", c.CommitTimestamp)
		}

		// Unsubscribing is an UPDATE whose old record is the key.
		if _, err := db.UnsubscribeWaitlist(ctx, s.ID, "secret-hash"); err != nil {
			t.Fatal(err)
		}
		u := log.wait(t, "sign-up UPDATE", func(c store.Change) bool { return c.Table == store.TableWaitlist && c.Type == "UPDATE" })
		if u.Record["unsubscribed_at"] == nil || u.Record["program"] != "Upcycling Initiative" || u.OldRecord["id"] != s.ID || len(u.OldRecord) != 1 {
			t.Fatalf("update = %+v", u)
		}

		// An account: its password hash never travels.
		user := &store.User{Email: "chipo@example.com", PasswordHash: "argon2id$secret"}
		if err := db.CreateUser(ctx, user); err != nil {
			t.Fatal(err)
		}
		a := log.wait(t, "account INSERT", func(c store.Change) bool { return c.Table == store.TableAccounts && c.Type == "INSERT" })
		if a.Record["id"] != user.ID || a.Record["is_admin"] != false {
			t.Fatalf("account = %v", a.Record)
		}
		for k, v := range a.Record {
			if s, ok := v.(string); ok && s == "argon2id$secret" {
				t.Fatalf("column %s carries the password hash", k)
			}
		}
		if err := db.SetAdmin(ctx, "chipo@example.com", true); err != nil {
			t.Fatal(err)
		}
		log.wait(t, "account UPDATE", func(c store.Change) bool {
			return c.Table == store.TableAccounts && c.Type == "UPDATE" && c.Record["is_admin"] == true
		})

		// A profile: INSERT first, UPDATE after; lists are JSON.
		if _, err := db.SaveBuyerProfile(ctx, user.ID, store.BuyerFields{FullName: "Chipo", ClothingAesthetics: []string{"DENIM WEAR"}}); err != nil {
			t.Fatal(err)
		}
		p := log.wait(t, "profile INSERT", func(c store.Change) bool { return c.Table == store.TableProfiles && c.Type == "INSERT" })
		if p.Record["user_id"] != user.ID || p.Record["role"] != "buyer" || jsonOf(p.Record["clothing_aesthetics"]) != `["DENIM WEAR"]` {
			t.Fatalf("profile = %v", p.Record)
		}
		if _, err := db.SaveSellerProfile(ctx, user.ID, store.SellerFields{FullName: "Chipo M", BusinessName: "Chipo Thrift"}); err != nil {
			t.Fatal(err)
		}
		log.wait(t, "profile UPDATE", func(c store.Change) bool {
			return c.Table == store.TableProfiles && c.Type == "UPDATE" && c.Record["role"] == "buyer_and_seller"
		})

		// Deleting the person announces a DELETE per row, keys only.
		if _, err := db.DeletePerson(ctx, user.ID, true); err != nil {
			t.Fatal(err)
		}
		for _, table := range []string{store.TableProfiles, store.TableAccounts} {
			d := log.wait(t, table+" DELETE", func(c store.Change) bool { return c.Table == table && c.Type == "DELETE" })
			if d.Record != nil || len(d.OldRecord) != 1 {
				t.Fatalf("delete = %+v", d)
			}
		}
	})
}

func TestChangesOfUndoneWritesAreNeverAnnounced(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		log := follow(t, db)
		boom := errors.New("the e-mail could not be queued")
		// Several writes at once share a group commit; the failing ones
		// are undone alone, and only the others are announced. A sign-up
		// whose ID is taken fails at its insert.
		taken := &store.WaitlistSignup{Email: "taken@example.com", Program: "Upcycling Initiative", UnsubscribeTokenHash: "taken"}
		if _, err := db.JoinWaitlist(ctx, taken, store.WaitlistJoin{}); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				email := "p" + string(rune('a'+i)) + "@example.com"
				if i%4 == 0 {
					s := &store.WaitlistSignup{Email: email, Program: "Upcycling Initiative", UnsubscribeTokenHash: "h" + email}
					if i%8 == 4 {
						s.ID = taken.ID
					}
					db.JoinWaitlist(ctx, s, store.WaitlistJoin{})
					return
				}
				m := &store.ContactMessage{FirstName: "A", LastName: "B", Email: email, Subject: "other", Message: "hello there"}
				var then func(*store.Tx) error
				if i%2 == 1 {
					then = func(*store.Tx) error { return boom }
				}
				db.CreateContactMessage(ctx, m, then)
			}()
		}
		wg.Wait()
		// A sentinel written last: once it is seen, everything before it was.
		if _, err := db.JoinWaitlist(ctx, &store.WaitlistSignup{Email: "last@example.com", Program: "Upcycling Initiative", UnsubscribeTokenHash: "last"}, store.WaitlistJoin{}); err != nil {
			t.Fatal(err)
		}
		log.wait(t, "the last sign-up", func(c store.Change) bool { return c.Record["email"] == "last@example.com" })
		// Kept: the taken one and the last; sign-ups 0, 8 and 16 (4 and 12
		// had a taken ID); messages 2, 6, 10, 14 and 18 (the odd ones failed).
		if n := log.count(func(c store.Change) bool { return c.Table == store.TableWaitlist }); n != 5 {
			t.Fatalf("%d sign-ups announced, want 5", n)
		}
		if n := log.count(func(c store.Change) bool { return c.Table == store.TableMessages }); n != 5 {
			t.Fatalf("%d messages announced, want 5", n)
		}
		if n := storetest.Count(t, db, `SELECT COUNT(*) FROM waitlist_signups`); n != 5 {
			t.Fatalf("%d sign-ups stored, want 5", n)
		}
		if n := storetest.Count(t, db, `SELECT COUNT(*) FROM contact_messages`); n != 5 {
			t.Fatalf("%d messages stored, want 5", n)
		}
	})
}

func TestChangesReachEveryInstanceOnPostgres(t *testing.T) {
	ctx := context.Background()
	url := storetest.MigratedPostgresDatabase(t)
	open := func() *store.DB {
		db, err := store.Open(ctx, url, "")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	a, b := open(), open()
	if _, err := a.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	atB := follow(t, b)
	atA := follow(t, a)
	// A contact message larger than one NOTIFY can carry travels by key.
	long := make([]byte, 9000)
	for i := range long {
		long[i] = 'a' + byte(i%26)
	}
	m := &store.ContactMessage{FirstName: "Bupe", LastName: "Zulu", Email: "bupe@example.com", Subject: "other", Message: string(long)}
	if err := a.CreateContactMessage(ctx, m, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := a.JoinWaitlist(ctx, &store.WaitlistSignup{Email: "mwape@example.com", Program: "Upcycling Initiative", UnsubscribeTokenHash: "x"}, store.WaitlistJoin{}); err != nil {
		t.Fatal(err)
	}
	for name, log := range map[string]*changeLog{"B": atB, "A": atA} {
		got := log.wait(t, "the message at "+name, func(c store.Change) bool { return c.Table == store.TableMessages })
		if got.Record["message"] != string(long) || got.Record["id"] != m.ID {
			t.Fatalf("message at %s: %d bytes", name, len(got.Record["message"].(string)))
		}
		log.wait(t, "the sign-up at "+name, func(c store.Change) bool { return c.Record["email"] == "mwape@example.com" })
		if n := log.count(func(c store.Change) bool { return c.Table == store.TableWaitlist }); n != 1 {
			t.Fatalf("%d sign-up events at %s, want 1", n, name)
		}
	}
}

// jsonOf is v as JSON (records travel through JSON on PostgreSQL).
func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// The record a sign-up or a contact message announces comes from the
// insert itself (no SELECT after it): it must be exactly the row as the
// SELECT path reads it back (a no-op UPDATE announced in its own
// transaction), column for column, on both engines, even with a creation
// time finer than the database keeps.
func TestChangesOfInsertsAreTheStoredRows(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		log := follow(t, db)
		created := time.Date(2026, 3, 1, 9, 30, 15, 123456789, time.FixedZone("CAT", 2*3600))
		s := &store.WaitlistSignup{Email: "naomi.o'brien@example.com", Program: "Wardrobe Clearance Program", PagePath: "/seller?x=\"1\"",
			Referrer: "https://wa.me/ü", UTMSource: "whatsapp", UTMMedium: "social", UTMCampaign: "launch—day", UTMTerm: "t", UTMContent: "ctá",
			UnsubscribeTokenHash: "h-naomi", CreatedAt: created}
		if joined, err := db.JoinWaitlist(ctx, s, store.WaitlistJoin{}); err != nil || !joined {
			t.Fatal(joined, err)
		}
		m := &store.ContactMessage{FirstName: "Bwalya", LastName: "Mwansa", Email: "bwalya@example.com", PhoneNumber: "+260 97 000 0000",
			Subject: "Order", Message: "Line one\nline \"two\" ✓"}
		if err := db.CreateContactMessage(ctx, m, nil); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct{ table, id string }{{store.TableWaitlist, s.ID}, {store.TableMessages, m.ID}} {
			ins := log.wait(t, tc.table+" INSERT", func(c store.Change) bool { return c.Table == tc.table && c.Type == "INSERT" })
			if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.Announce(ctx, tc.table, "UPDATE", `id = ?`, tc.id) }); err != nil {
				t.Fatal(err)
			}
			read := log.wait(t, tc.table+" read back", func(c store.Change) bool { return c.Table == tc.table && c.Type == "UPDATE" })
			if got, want := jsonOf(ins.Record), jsonOf(read.Record); got != want || ins.Record["id"] != tc.id {
				t.Fatalf("%s announced\n%s\nstored\n%s", tc.table, got, want)
			}
			if len(ins.Record) != len(store.ChangeColumns(tc.table)) {
				t.Fatalf("%s: %d columns announced", tc.table, len(ins.Record))
			}
		}
		// The stored creation time is the one announced.
		got, err := db.WaitlistSignupByEmail(ctx, s.Email, s.Program)
		if err != nil {
			t.Fatal(err)
		}
		ins := log.wait(t, "sign-up INSERT", func(c store.Change) bool { return c.Table == store.TableWaitlist && c.Type == "INSERT" })
		if at, _ := time.Parse(time.RFC3339Nano, ins.Record["created_at"].(string)); !at.Equal(got.CreatedAt) {
			t.Fatalf("announced created_at %v, stored %v", ins.Record["created_at"], got.CreatedAt)
		}
	})
}

// Sign-ups committed together announce every one exactly once, with its
// whole record, even when its row is too large for a NOTIFY payload of
// its own on PostgreSQL.
func TestSignUpsAtOnceAreEachAnnouncedOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		log := follow(t, db)
		const n = 96
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s := &store.WaitlistSignup{Email: fmt.Sprintf("many%d@example.com", i), Program: "Upcycling Initiative",
					PagePath: "/" + strings.Repeat("p", 7000), UnsubscribeTokenHash: fmt.Sprintf("mh%d", i)}
				_, errs[i] = db.JoinWaitlist(ctx, s, store.WaitlistJoin{
					Email: &store.OutboxEmail{To: s.Email, Subject: "You're on the list", Body: "b", Kind: "waitlist"}})
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("sign-up %d: %v", i, err)
			}
		}
		for deadline := time.Now().Add(5 * time.Second); log.count(func(c store.Change) bool { return c.Table == store.TableWaitlist }) < n; {
			if time.Now().After(deadline) {
				t.Fatalf("%d of %d sign-ups announced within 5 s", log.count(func(c store.Change) bool { return c.Table == store.TableWaitlist }), n)
			}
			time.Sleep(5 * time.Millisecond)
		}
		// A last sign-up fences the feed: it delivers in commit order, so a
		// duplicate of an earlier one would come before this one's change.
		fence := &store.WaitlistSignup{Email: "fence@example.com", Program: "Upcycling Initiative",
			PagePath: "/" + strings.Repeat("p", 7000), UnsubscribeTokenHash: "mhfence"}
		if _, err := db.JoinWaitlist(ctx, fence, store.WaitlistJoin{}); err != nil {
			t.Fatal(err)
		}
		log.wait(t, "the fence sign-up", func(c store.Change) bool {
			return c.Table == store.TableWaitlist && c.Record["email"] == "fence@example.com"
		})
		log.mu.Lock()
		defer log.mu.Unlock()
		seen := map[any]int{}
		for _, c := range log.all {
			if c.Table == store.TableWaitlist {
				seen[c.Record["email"]]++
				if len(c.Record["page_path"].(string)) != 7001 {
					t.Fatalf("page_path of %v cut", c.Record["email"])
				}
			}
		}
		for i := range n {
			if e := fmt.Sprintf("many%d@example.com", i); seen[e] != 1 {
				t.Fatalf("%s announced %d times", e, seen[e])
			}
		}
	})
}

// TestChangesWhenNobodyFollowsAtTheInsert: a listener that wants changes
// only from some moment on gets an insert committed after that moment with
// its whole record, even when nobody wanted changes while the row was
// inserted (SQLite then reads the row after the commit).
func TestChangesWhenNobodyFollowsAtTheInsert(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		l, want := followWhen(t, db)

		quiet := &store.ContactMessage{FirstName: "Mwila", LastName: "Banda", Email: "quiet@example.com", Subject: "general Inquiry", Message: "first"}
		if err := db.CreateContactMessage(ctx, quiet, nil); err != nil {
			t.Fatal(err)
		}
		// The listener starts wanting changes between the insert and its commit.
		m := &store.ContactMessage{FirstName: "Chanda", LastName: "Mwale", Email: "chanda@example.com", Subject: "general Inquiry", Message: "Hello"}
		if err := db.CreateContactMessage(ctx, m, func(*store.Tx) error { want(true); return nil }); err != nil {
			t.Fatal(err)
		}
		c := l.wait(t, "message INSERT", func(c store.Change) bool { return c.Type == "INSERT" && c.Record["id"] == m.ID })
		if c.Table != store.TableMessages || c.Record["email"] != "chanda@example.com" || c.Record["message"] != "Hello" ||
			c.Record["status"] != "open" || c.Record["created_at"] == nil {
			t.Fatalf("record = %v", c.Record)
		}
		// The first insert, committed while nobody wanted changes, may be
		// delivered (the listener wanted changes by the time the feed got
		// to it), but never without its record.
		for _, c := range l.snapshot() {
			if c.Type == "INSERT" && (c.Record["id"] == nil || c.Record["email"] == nil) {
				t.Fatalf("change without its record: %+v", c)
			}
		}
	})
}

// TestGroupChangesWhenNobodyFollowsAtTheInsert: the same for writes
// committed together: every message of the group is announced once, with
// its whole record.
func TestGroupChangesWhenNobodyFollowsAtTheInsert(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		l, want := followWhen(t, db)

		// The messages queue up behind a write holding the writer, so that
		// they go in together, while nobody wants changes yet.
		var wg sync.WaitGroup
		holdWriter(t, db, &wg)
		const n = 32
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				m := &store.ContactMessage{FirstName: "Chanda", LastName: "Mwale", Email: fmt.Sprintf("g%d@example.com", i),
					Subject: "general Inquiry", Message: "Hello"}
				// The listener starts wanting changes after the rows went in.
				errs[i] = db.CreateContactMessage(ctx, m, func(*store.Tx) error { want(true); return nil })
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("message %d: %v", i, err)
			}
		}
		isMessage := func(c store.Change) bool { return c.Table == store.TableMessages && c.Type == "INSERT" }
		for deadline := time.Now().Add(5 * time.Second); l.count(isMessage) < n; {
			if time.Now().After(deadline) {
				t.Fatalf("%d of %d messages announced within 5 s", l.count(isMessage), n)
			}
			time.Sleep(5 * time.Millisecond)
		}
		// A last message fences the feed: it delivers in commit order, so a
		// duplicate of an earlier one would come before this one's change.
		fence := &store.ContactMessage{FirstName: "Chanda", LastName: "Mwale", Email: "fence@example.com",
			Subject: "general Inquiry", Message: "Hello"}
		if err := db.CreateContactMessage(ctx, fence, func(*store.Tx) error { return nil }); err != nil {
			t.Fatal(err)
		}
		l.wait(t, "the fence message", func(c store.Change) bool { return isMessage(c) && c.Record["email"] == "fence@example.com" })
		seen := map[any]int{}
		for _, c := range l.snapshot() {
			if !isMessage(c) {
				continue
			}
			if c.Record["id"] == nil || c.Record["message"] != "Hello" || c.Record["status"] != "open" {
				t.Fatalf("change without its record: %+v", c)
			}
			seen[c.Record["email"]]++
		}
		for i := range n {
			if e := fmt.Sprintf("g%d@example.com", i); seen[e] != 1 {
				t.Fatalf("%s announced %d times", e, seen[e])
			}
		}
	})
}

// holdWriter runs a write that keeps the Writer busy for 200 ms, so that
// the writes started meanwhile queue up and are committed together. wg
// waits for it too.
func holdWriter(t *testing.T, db *store.DB, wg *sync.WaitGroup) {
	t.Helper()
	held := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := db.InTx(context.Background(), func(*store.Tx) error {
			close(held)
			time.Sleep(200 * time.Millisecond)
			return nil
		}); err != nil {
			t.Error(err)
		}
	}()
	<-held
}

// followWhen collects db's changes with a listener that wants them only
// once want(true) is called.
func followWhen(t *testing.T, db *store.DB) (*changeLog, func(bool)) {
	var mu sync.Mutex
	wants := false
	l := &changeLog{}
	stop := db.OnChangeWhen(func(c store.Change) {
		l.mu.Lock()
		l.all = append(l.all, c)
		l.mu.Unlock()
	}, func() bool { mu.Lock(); defer mu.Unlock(); return wants })
	t.Cleanup(stop)
	return l, func(v bool) { mu.Lock(); wants = v; mu.Unlock() }
}

// TestSignInChangesWhenNobodyFollows: a sign-in's last_sign_in_at is
// announced as an UPDATE of the account; while nobody follows, without
// reading the account back, and if someone follows by the time the feed
// delivers it, with the account as stored after the commit.
func TestSignInChangesWhenNobodyFollows(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		l, want := followWhen(t, db)
		quiet, _ := newUserAndSession(t, db, "quiet@example.com", "hq")
		want(true)
		u, s := newUserAndSession(t, db, "followed@example.com", "hf")
		c := l.wait(t, "account UPDATE", func(c store.Change) bool {
			return c.Table == store.TableAccounts && c.Type == "UPDATE" && c.Record["id"] == u.ID
		})
		if c.OldRecord["id"] != u.ID || c.Record["email"] != "followed@example.com" || c.Record["last_sign_in_at"] == nil {
			t.Fatalf("change = %+v", c)
		}
		stored, err := db.UserByID(ctx, u.ID)
		if err != nil || stored.LastSignInAt == nil || !stored.LastSignInAt.Equal(s.CreatedAt) {
			t.Fatalf("stored last sign-in = %v (%v), session at %v", stored.LastSignInAt, err, s.CreatedAt)
		}
		// The quiet sign-in's change may have been delivered (the listener
		// wanted changes by the time the feed got to it), but never
		// without its record.
		for _, c := range l.snapshot() {
			if c.Table == store.TableAccounts && (c.Record["id"] == nil || c.Record["email"] == nil) {
				t.Fatalf("change without its record: %+v", c)
			}
			if c.Type == "UPDATE" && c.Record["id"] == quiet.ID && c.OldRecord["id"] != quiet.ID {
				t.Fatalf("update without its old key: %+v", c)
			}
		}
	})
}

// TestChangesWhileNobodyFollowsAreNotDelivered: on SQLite a change
// committed while no listener wants changes is not delivered later (the
// feed drops it at the commit instead of waking up for it); one committed
// once a listener wants them is delivered with its record. (On PostgreSQL
// the feed gets a change when its NOTIFY arrives, which may be after the
// listener started wanting changes: then it is delivered.)
func TestChangesWhileNobodyFollowsAreNotDelivered(t *testing.T) {
	func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		l, want := followWhen(t, db)
		join := func(email string) {
			t.Helper()
			s := &store.WaitlistSignup{Email: email, Program: "Upcycling Initiative", UnsubscribeTokenHash: "h-" + email}
			if _, err := db.JoinWaitlist(ctx, s, store.WaitlistJoin{}); err != nil {
				t.Fatal(err)
			}
		}
		join("unseen@example.com")
		want(true)
		join("seen@example.com")
		c := l.wait(t, "the followed sign-up", func(c store.Change) bool {
			return c.Table == store.TableWaitlist && c.Record["email"] == "seen@example.com"
		})
		if c.Type != "INSERT" || c.Record["program"] != "Upcycling Initiative" {
			t.Fatalf("change = %+v", c)
		}
		if n := l.count(func(c store.Change) bool { return c.Record["email"] == "unseen@example.com" }); n != 0 {
			t.Fatalf("the sign-up made while nobody followed was delivered %d times", n)
		}
	}(t, storetest.Open(t, store.SQLite))
}
