package account

import (
	"context"
	"errors"
	"strings"
	"time"

	"salaula/internal/config"
	"salaula/internal/mail"
	"salaula/internal/media"
	"salaula/internal/store"
)

// Retention is how long the server keeps data nobody uses
// (docs/decisions/0093-retention-sweep.md and the Privacy Policy). A zero duration keeps that kind of data.
type Retention struct {
	// UnconfirmedAccounts: accounts whose e-mail was never confirmed.
	UnconfirmedAccounts time.Duration
	// Uploads: uploaded files no profile refers to.
	Uploads time.Duration
	// Outbox: e-mails recorded in the outbox.
	Outbox time.Duration
	// EmailBodies: the body (and List-Unsubscribe address) of a sent
	// e-mail; after it the outbox keeps only what the console and
	// `salaula admin mail` show (recipient, subject, kind, state, times)
	// until Outbox.
	EmailBodies time.Duration
	// ContactMessages: messages sent through the Contact Us form.
	ContactMessages time.Duration
}

// DefaultRetention is the policy: unconfirmed accounts 30 days (only when
// e-mail confirmation is required, else no account is unconfirmed for long),
// unused uploads 24 hours, outbox e-mails 30 days (their body 7 days once
// sent; SALAULA_EMAIL_RETENTION and SALAULA_EMAIL_BODY_RETENTION set both),
// contact messages 2 years (730 days, never more than two calendar years).
func DefaultRetention(confirmEmail bool) Retention {
	r := Retention{Uploads: 24 * time.Hour, Outbox: config.DefaultEmailRetention, EmailBodies: DefaultEmailBodies,
		ContactMessages: 730 * 24 * time.Hour}
	if confirmEmail {
		r.UnconfirmedAccounts = 30 * 24 * time.Hour
	}
	return r
}

// DefaultEmailBodies is how long a sent e-mail's body is kept by default
// (SALAULA_EMAIL_BODY_RETENTION sets it; see EmailBodiesFor).
const DefaultEmailBodies = config.DefaultEmailBodyRetention

// EmailBodiesFor is Retention.EmailBodies for the setting d: d itself, and
// for 0 (cleared as each e-mail is sent, mail.Outbox.ClearBodies) the
// shortest duration, so the sweep also clears what an earlier setting kept,
// since a zero Retention field keeps its data.
func EmailBodiesFor(d time.Duration) time.Duration { return max(d, time.Nanosecond) }

// Swept reports what one sweep removed.
type Swept struct {
	Accounts int   `json:"accounts"`
	Uploads  int   `json:"uploads"`
	Emails   int64 `json:"emails"`
	Messages int64 `json:"messages"`
	// EmailBodies counts the sent e-mails whose body was cleared.
	EmailBodies int64 `json:"emailBodies"`
}

// Sweep removes what the retention policy no longer allows to keep. It goes
// on past a failure and returns the first error.
func (r *Rules) Sweep(ctx context.Context, ret Retention) (Swept, error) {
	var out Swept
	var first error
	keep := func(err error) {
		if err != nil && first == nil {
			first = err
		}
	}
	now := r.now()
	if ret.UnconfirmedAccounts > 0 {
		ids, err := r.DB.UnconfirmedUsersBefore(ctx, now.Add(-ret.UnconfirmedAccounts))
		keep(err)
		for _, id := range ids {
			u, err := r.DB.UserByID(ctx, id)
			if err != nil {
				keep(err)
				continue
			}
			// The address never proved to be theirs: no e-mail is sent,
			// and the rows sent with it stay (they may be someone else's).
			if _, err := r.forget(ctx, u, false, u.EmailProvenAt != nil); err != nil && !errors.Is(err, ErrNoAccount) {
				keep(err)
				continue
			}
			out.Accounts++
		}
	}
	if ret.Uploads > 0 {
		n, err := r.sweepUploads(ctx, now.Add(-ret.Uploads))
		out.Uploads = n
		keep(err)
	}
	if ret.Outbox > 0 {
		n, err := mail.DeleteBefore(ctx, r.DB, now.Add(-ret.Outbox))
		out.Emails = n
		keep(err)
	}
	if ret.EmailBodies > 0 {
		n, err := r.DB.ClearSentBodies(ctx, now.Add(-ret.EmailBodies))
		out.EmailBodies = n
		keep(err)
	}
	if ret.ContactMessages > 0 {
		n, err := r.DB.DeleteContactMessagesBefore(ctx, now.Add(-ret.ContactMessages))
		out.Messages = n
		keep(err)
	}
	return out, first
}

// sweepUploads deletes the files uploaded before cutoff that their owner's
// profile does not refer to.
func (r *Rules) sweepUploads(ctx context.Context, cutoff time.Time) (int, error) {
	objects, err := r.DB.MediaObjectsBefore(ctx, cutoff)
	if err != nil {
		return 0, err
	}
	used := map[string]map[string]bool{} // owner -> object paths in the profile
	n := 0
	for _, o := range objects {
		paths, ok := used[o.OwnerID]
		if !ok {
			p, err := r.DB.ProfileByUser(ctx, o.OwnerID)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return n, err
			}
			paths = ProfilePaths(p)
			used[o.OwnerID] = paths
		}
		if paths[strings.TrimPrefix(o.Key, media.Bucket+"/")] {
			continue
		}
		if err := r.Media.Delete(ctx, o.Key); err != nil && !errors.Is(err, media.ErrNotFound) {
			return n, err
		}
		if err := r.DB.ForgetMediaObject(ctx, o.Key); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// ProfilePaths returns the object paths in user-media of every image the
// profile refers to (none for a nil profile).
func ProfilePaths(p *store.Profile) map[string]bool {
	paths := map[string]bool{}
	if p == nil {
		return paths
	}
	for _, u := range p.ImageURLs() {
		if path, ok := media.PathFromPublicURL(u, media.Bucket); ok {
			paths[path] = true
		}
	}
	return paths
}

// SweepEvery runs Sweep at start and then every interval until ctx ends,
// logging what each run removed. Several instances may sweep at once: each
// deletion is idempotent.
func (r *Rules) SweepEvery(ctx context.Context, ret Retention, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		out, err := r.Sweep(ctx, ret)
		if err != nil && ctx.Err() == nil {
			r.logger().Error("retention sweep", "err", err)
		}
		if out != (Swept{}) {
			r.logger().Info("retention sweep", "accounts", out.Accounts, "uploads", out.Uploads, "emails", out.Emails,
				"messages", out.Messages)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
