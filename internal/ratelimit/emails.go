package ratelimit

import (
	"context"
	"errors"
	"strconv"
	"time"

	"salaula/internal/store"
)

// EmailMinInterval is the least time between two e-mails of the limited
// kinds (reset links, confirmation links, proof links) to one address, as
// the hosted auth service has it.
const EmailMinInterval = time.Minute

// EmailQuota is how many e-mails one address may get in Window, besides at
// most one per EmailMinInterval (SALAULA_RATE_EMAIL, default 5 an hour).
type EmailQuota struct {
	Count  int
	Window time.Duration
}

// DefaultEmailQuota is the hosted auth service's default: five an hour.
var DefaultEmailQuota = EmailQuota{Count: 5, Window: time.Hour}

// Emails limits the e-mails one address gets. The count lives in the
// database (every instance and restart sees it), and two concurrent calls
// cannot both take the last allowance. A zero Quota.Count allows everything.
type Emails struct {
	DB    *store.DB
	Quota EmailQuota
}

// Allow reports whether one more e-mail may go to mailbox at now, and if
// so counts it; if not, wait is how long until one may. The caller names
// the mailbox by validate.MailboxKey of the address, so that
// "a.b+x@gmail.com" and "ab@googlemail.com" share one count.
func (l *Emails) Allow(ctx context.Context, mailbox string, now time.Time) (ok bool, wait time.Duration, err error) {
	if l == nil || l.Quota.Count <= 0 {
		return true, 0, nil
	}
	address := mailbox
	for range 10 {
		rec, err := l.DB.EmailSendsOf(ctx, address)
		if err != nil {
			return false, 0, err
		}
		sent := within(rec.Times, now, l.Quota.Window)
		if wait := l.wait(sent, now); wait > 0 {
			return false, wait, nil
		}
		swapped, err := l.DB.SwapEmailSends(ctx, address, rec, append(sent, now.Unix()), now)
		if err != nil || swapped {
			return swapped, 0, err
		}
		// Another instance counted an e-mail meanwhile: look again.
	}
	return false, 0, errors.New("ratelimit: the e-mail count of an address kept changing")
}

// wait is how long after now the next e-mail may go, given the sends
// within the window (oldest first); zero when one may go now.
func (l *Emails) wait(sent []int64, now time.Time) time.Duration {
	var next time.Time
	if len(sent) > 0 {
		next = time.Unix(sent[len(sent)-1], 0).Add(EmailMinInterval)
	}
	if len(sent) >= l.Quota.Count {
		if t := time.Unix(sent[len(sent)-l.Quota.Count], 0).Add(l.Quota.Window); t.After(next) {
			next = t
		}
	}
	return max(next.Sub(now.Truncate(time.Second)), 0)
}

// within keeps the send times less than window before now.
func within(times []int64, now time.Time, window time.Duration) []int64 {
	var out []int64
	for _, t := range times {
		if now.Unix()-t < int64(window/time.Second) {
			out = append(out, t)
		}
	}
	return out
}

// EmailWait tells a person asking for one more e-mail within the limit
// when they may ask again, in the hosted auth service's words:
// "For security purposes, you can only request this after 42 seconds."
func EmailWait(d time.Duration) string {
	return "For security purposes, you can only request this after " + strconv.Itoa(Seconds(d)) + " seconds."
}

// Seconds is d rounded up to whole seconds (a Retry-After value).
func Seconds(d time.Duration) int {
	return int((d + time.Second - 1) / time.Second)
}

// Minutes says d, rounded up to whole minutes, in words: "1 minute",
// "4 minutes", "1 hour".
func Minutes(d time.Duration) string {
	m := int((d + time.Minute - 1) / time.Minute)
	switch {
	case m == 60:
		return "1 hour"
	case m <= 1:
		return "1 minute"
	}
	return strconv.Itoa(m) + " minutes"
}
