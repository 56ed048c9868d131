package mfa

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"salaula/internal/mail"
	"salaula/internal/seal"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

func TestDelayGrowsFromLockAfterUpToMaxDelay(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]time.Duration{1: 0, 4: 0, 5: time.Minute, 6: 2 * time.Minute, 7: 4 * time.Minute,
		10: 32 * time.Minute, 11: time.Hour, 12: time.Hour, 10_000: time.Hour} {
		if got := Delay(n); got != want {
			t.Errorf("Delay(%d) = %v, want %v", n, got, want)
		}
	}
}

// lockoutEnv is one account with a verified factor, a clock the test
// moves, and the outbox the warnings go to.
type lockoutEnv struct {
	t      *testing.T
	db     *store.DB
	box    *seal.Box
	user   *store.User
	factor string
	secret string
	now    time.Time
	outbox *mail.Outbox
}

func newLockoutEnv(t *testing.T, db *store.DB) *lockoutEnv {
	t.Helper()
	ctx := context.Background()
	box, err := seal.New([]byte("test-secret-test-secret-test-secret!"), SealPurpose)
	if err != nil {
		t.Fatal(err)
	}
	u := &store.User{Email: "mwila@example.com", PasswordHash: "not used"}
	if err := db.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	e, err := Enroll(ctx, db, box, u, "aal1", "Phone", "")
	if err != nil {
		t.Fatal(err)
	}
	outbox, err := mail.New(db, "Salaula <no-reply@salaula.co.zm>", "", slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	return &lockoutEnv{t: t, db: db, box: box, user: u, factor: e.Factor.ID, secret: e.Secret,
		now: time.Date(2031, 3, 2, 8, 0, 0, 0, time.UTC), outbox: outbox}
}

// try tries code against a new challenge of the env's factor at its clock.
func (e *lockoutEnv) try(code string) error {
	e.t.Helper()
	return e.tryOn(e.factor, "aal1", code)
}

// tryOn tries code against a new challenge of factor from a session at aal.
func (e *lockoutEnv) tryOn(factor, aal, code string) error {
	e.t.Helper()
	ctx := context.Background()
	id, _, err := Challenge(ctx, e.db, e.user.ID, factor, "198.51.100.7", e.now)
	if err != nil {
		e.t.Fatal(err)
	}
	return Verify(ctx, e.db, e.box, Attempt{UserID: e.user.ID, FactorID: factor, ChallengeID: id, Code: code, AAL: aal, Now: e.now},
		func(ctx context.Context, tx *store.Tx) error {
			return e.outbox.Enqueue(ctx, tx, mail.Message{To: e.user.Email, Subject: "Someone is trying codes", Body: "…", Kind: "mfa-wrong-codes"})
		})
}

// right is the code the app shows now; wrong is one that matches no step
// in the drift window.
func (e *lockoutEnv) right() string {
	c, _ := Code(e.secret, Step(e.now))
	return c
}

func (e *lockoutEnv) wrong() string {
	for _, c := range []string{"000000", "111111", "222222", "333333"} {
		if _, ok := Match(e.secret, c, e.now); !ok {
			return c
		}
	}
	e.t.Fatal("no wrong code found")
	return ""
}

// wrongCodes tries n wrong codes, each answered ErrBadCode.
func (e *lockoutEnv) wrongCodes(n int) {
	e.t.Helper()
	e.wrongCodesOn(e.factor, "aal1", n)
}

// wrongCodesOn tries n wrong codes on factor from a session at aal, each
// answered ErrBadCode.
func (e *lockoutEnv) wrongCodesOn(factor, aal string, n int) {
	e.t.Helper()
	for i := range n {
		if err := e.tryOn(factor, aal, e.wrong()); err != ErrBadCode {
			e.t.Fatalf("wrong code %d of %d: %v, want ErrBadCode", i+1, n, err)
		}
	}
}

// wantLocked wants err to be a refusal until until.
func (e *lockoutEnv) wantLocked(err error, until time.Time) {
	e.t.Helper()
	var locked *LockedError
	if !errors.As(err, &locked) || !locked.Until.Equal(until) {
		e.t.Fatalf("answer %v, want a refusal until %s", err, until)
	}
}

// state returns the account's wrong codes in a row and lock.
func (e *lockoutEnv) state() (int, *time.Time) {
	e.t.Helper()
	ctx := context.Background()
	var n int
	if err := e.db.QueryRow(ctx, `SELECT mfa_failed_attempts FROM users WHERE id = ?`, e.user.ID).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	until, err := e.db.MFALockedUntil(ctx, e.user.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	return n, until
}

// warnings counts the e-mails about wrong codes, queued or sent.
func (e *lockoutEnv) warnings() int {
	emails, err := e.db.EmailsTo(context.Background(), e.user.Email, 100)
	if err != nil {
		e.t.Fatal(err)
	}
	n := 0
	for _, m := range emails {
		if m.Kind == "mfa-wrong-codes" {
			n++
		}
	}
	return n
}

func TestWrongCodesInARowLockTheFactorForAGrowingDelay(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newLockoutEnv(t, db)
		if err := e.try(e.right()); err != nil {
			t.Fatalf("enrolment: %v", err)
		}

		// LockAfter-1 wrong codes: still free, nobody told.
		e.now = e.now.Add(Period)
		e.wrongCodes(LockAfter - 1)
		if n := e.warnings(); n != 0 {
			t.Fatalf("%d warnings before the %d-th wrong code", n, LockAfter)
		}
		// The LockAfter-th: the person is told, and the factor waits FirstDelay.
		e.wrongCodes(1)
		first := e.now.Add(FirstDelay)
		if n, until := e.state(); n != LockAfter || until == nil || !until.Equal(first) {
			t.Fatalf("after %d wrong codes: %d in a row, locked until %v, want %s", LockAfter, n, until, first)
		}
		if n := e.warnings(); n != 1 {
			t.Fatalf("%d warnings, want 1", n)
		}
		// Meanwhile even the right code is refused, and nothing is counted.
		e.now = first.Add(-time.Second)
		e.wantLocked(e.try(e.right()), first)
		e.wantLocked(e.try(e.wrong()), first)
		if n, _ := e.state(); n != LockAfter {
			t.Fatalf("refused codes were counted: %d in a row", n)
		}

		// Another wrong code once the wait is over doubles it; no second e-mail.
		e.now = first
		e.wrongCodes(1)
		second := e.now.Add(2 * FirstDelay)
		e.now = second.Add(-time.Second)
		e.wantLocked(e.try(e.right()), second)
		if n := e.warnings(); n != 1 {
			t.Fatalf("%d warnings in one run of wrong codes, want 1", n)
		}

		// After the wait the right code works and the run is forgotten.
		e.now = second
		if err := e.try(e.right()); err != nil {
			t.Fatalf("right code after the wait: %v", err)
		}
		if n, until := e.state(); n != 0 || until != nil {
			t.Fatalf("after the right code: %d in a row, locked until %v", n, until)
		}

		// A new run of wrong codes starts from nothing and is told once more.
		e.now = e.now.Add(Period)
		e.wrongCodes(LockAfter - 1)
		if n, until := e.state(); n != LockAfter-1 || until != nil {
			t.Fatalf("second run: %d in a row, locked until %v", n, until)
		}
		e.wrongCodes(1)
		if n := e.warnings(); n != 2 {
			t.Fatalf("%d warnings after two runs, want 2", n)
		}
	})
}

// Wrong codes sent at once when a wait ends (from several instances, say)
// get one try between them: one is counted, the others are refused.
func TestWrongCodesAtOnceAfterAWaitGetOneTry(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newLockoutEnv(t, db)
		if err := e.try(e.right()); err != nil {
			t.Fatal(err)
		}
		e.now = e.now.Add(Period)
		e.wrongCodes(LockAfter)
		e.now = e.now.Add(FirstDelay)
		ctx := context.Background()
		var ids []string
		for range 8 {
			id, _, err := Challenge(ctx, db, e.user.ID, e.factor, "", e.now)
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		errs := make([]error, len(ids))
		var wg sync.WaitGroup
		for i, id := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = Verify(ctx, db, e.box, Attempt{UserID: e.user.ID, FactorID: e.factor, ChallengeID: id, Code: e.wrong(), Now: e.now}, nil)
			}()
		}
		wg.Wait()
		counted := 0
		for _, err := range errs {
			var locked *LockedError
			switch {
			case err == ErrBadCode:
				counted++
			case errors.As(err, &locked):
			default:
				t.Fatalf("answer %v", err)
			}
		}
		if n, _ := e.state(); counted != 1 || n != LockAfter+1 {
			t.Fatalf("%d codes checked, %d in a row; want 1 and %d", counted, n, LockAfter+1)
		}
	})
}

// Wrong codes on a factor being enrolled count against the account like
// those on a verified one: the LockAfter-th locks every factor of the
// account and warns the person, and while the account waits the enrolling
// factor's right code is refused like any other.
func TestWrongCodesOnAnUnverifiedFactorLockTheAccount(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newLockoutEnv(t, db) // its factor is not verified yet
		e.wrongCodes(LockAfter)
		first := e.now.Add(FirstDelay)
		if n, until := e.state(); n != LockAfter || until == nil || !until.Equal(first) {
			t.Fatalf("after %d wrong codes: %d in a row, locked until %v, want %s", LockAfter, n, until, first)
		}
		if n := e.warnings(); n != 1 {
			t.Fatalf("%d warnings, want 1", n)
		}
		e.wantLocked(e.try(e.right()), first)
		e.now = first
		if err := e.try(e.right()); err != nil {
			t.Fatalf("right code after the wait: %v", err)
		}
		if n, until := e.state(); n != 0 || until != nil {
			t.Fatalf("after the right code: %d in a row, locked until %v", n, until)
		}
	})
}

// A second factor (enrolled at aal2) shares the account's count: wrong
// codes on it and on the verified one make one run, one lock, one e-mail;
// from a password-only session it cannot be verified at all.
func TestWrongCodesOnEveryFactorMakeOneRun(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newLockoutEnv(t, db)
		if err := e.try(e.right()); err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		if _, err := Enroll(ctx, db, e.box, e.user, "aal1", "Tablet", ""); err != ErrInsufficientAAL {
			t.Fatalf("enrolling a second factor at aal1: %v, want ErrInsufficientAAL", err)
		}
		other, err := Enroll(ctx, db, e.box, e.user, "aal2", "Tablet", "")
		if err != nil {
			t.Fatal(err)
		}
		right := func() string { c, _ := Code(other.Secret, Step(e.now)); return c }
		e.now = e.now.Add(Period)
		if err := e.tryOn(other.Factor.ID, "aal1", right()); err != ErrInsufficientAAL {
			t.Fatalf("the new factor's right code at aal1: %v, want ErrInsufficientAAL", err)
		}
		e.wrongCodesOn(other.Factor.ID, "aal2", 3)
		e.wrongCodes(LockAfter - 3)
		first := e.now.Add(FirstDelay)
		if n, until := e.state(); n != LockAfter || until == nil || !until.Equal(first) {
			t.Fatalf("after %d wrong codes on two factors: %d in a row, locked until %v, want %s", LockAfter, n, until, first)
		}
		if n := e.warnings(); n != 1 {
			t.Fatalf("%d warnings, want 1", n)
		}
		e.wantLocked(e.tryOn(other.Factor.ID, "aal2", right()), first)
		e.wantLocked(e.try(e.right()), first)
	})
}
