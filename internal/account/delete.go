package account

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"salaula/internal/mail"
	"salaula/internal/media"
	"salaula/internal/store"
)

// Deleted reports what deleting a person removed.
type Deleted struct {
	Email string `json:"email"`
	// Rows is how many rows went from each table.
	Rows map[string]int64 `json:"rows"`
	// Files is how many uploaded files went from the media store.
	Files int `json:"files"`
	// ByAddress: the waitlist sign-ups, contact messages and e-mails under
	// the address went too (the account had proved it, or an operator
	// deleted it); else they stay.
	ByAddress bool `json:"by_address"`
}

// DeleteOwn is what account-delete does: with the account's password,
// delete the account and everything held about it, then send a
// confirmation. The waitlist sign-ups, contact messages and e-mails under
// its address go only when the account proved the address. A wrong
// password is ErrWrongPassword and changes nothing; so is a password-only
// session of an account with two-step sign-in (ErrInsufficientAAL, before
// the password is looked at).
func (r *Rules) DeleteOwn(ctx context.Context, c Caller, pw string) (*Deleted, error) {
	if strings.TrimSpace(pw) == "" {
		return nil, ErrPasswordNeeded
	}
	u, err := r.userByID(ctx, c.UserID)
	if err != nil {
		return nil, err
	}
	if err := r.checkAAL(ctx, c); err != nil {
		return nil, err
	}
	if err := checkPassword(u, pw); err != nil {
		return nil, err
	}
	return r.forget(ctx, u, true, u.EmailProvenAt != nil)
}

// DeleteByEmail is `salaula admin user delete EMAIL`: the same for an
// operator answering a request by e-mail or letter (every row under the
// address goes, proven or not: the operator checks who asks), noted in the
// audit log.
func (r *Rules) DeleteByEmail(ctx context.Context, actor, email string) (*Deleted, error) {
	u, err := r.userByEmail(ctx, email)
	if err != nil {
		return nil, err
	}
	d, err := r.forget(ctx, u, true, true)
	if err != nil {
		return nil, err
	}
	return d, r.audit(ctx, actor, "user.delete", u.Email)
}

// forget deletes u: in one transaction every row held about it (see
// store.DeletePerson; the rows under its address only when byAddress),
// then its uploaded files (their public URLs answer 404 from then on),
// then, when byAddress, the e-mails recorded for its address; and, when
// notify is set, sends the confirmation. Its sessions are gone, so its
// access and refresh tokens are refused everywhere at once.
func (r *Rules) forget(ctx context.Context, u *store.User, notify, byAddress bool) (*Deleted, error) {
	keys := map[string]bool{}
	objects, err := r.DB.MediaObjectsOf(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	for _, o := range objects {
		keys[o.Key] = true
	}
	if p, err := r.DB.ProfileByUser(ctx, u.ID); err == nil {
		for _, url := range p.ImageURLs() {
			if path, ok := media.PathFromPublicURL(url, media.Bucket); ok && media.Owner(path) == u.ID {
				keys[media.Key(media.Bucket, path)] = true
			}
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	rows, err := r.DB.DeletePerson(ctx, u.ID, byAddress)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNoAccount
	}
	if err != nil {
		return nil, err
	}
	d := &Deleted{Email: u.Email, Rows: rows, ByAddress: byAddress}
	var failed []string
	for key := range keys {
		err := r.Media.Delete(ctx, key)
		switch {
		case err == nil:
			d.Files++
		case errors.Is(err, media.ErrNotFound):
		default:
			failed = append(failed, key)
			r.logger().Error("delete account: delete file", "key", key, "err", err)
		}
	}
	if byAddress {
		if d.Rows["outbox_emails"], err = mail.ForgetRecipient(ctx, r.DB, u.Email); err != nil {
			r.logger().Error("delete account: forget e-mails", "err", err)
		}
	}
	if notify && r.Mailer != nil {
		if err := r.Mailer.Send(ctx, confirmation(u.Email, r.SupportEmail, byAddress)); err != nil {
			r.logger().Error("delete account: send confirmation", "err", err)
		}
	}
	if len(failed) > 0 {
		return d, fmt.Errorf("the account is deleted but %d file(s) could not be removed: %s", len(failed), strings.Join(failed, ", "))
	}
	return d, nil
}

// confirmation is the e-mail that tells a person their account is gone;
// byAddress says whether the rows sent with the address went too.
func confirmation(to, support string, byAddress bool) mail.Message {
	body := "Hello,\n\n" +
		"Your Salaula account (" + to + ") has been deleted, as you asked. With it we deleted your profile, " +
		"your photos and logos and your sign-in sessions"
	if byAddress {
		body += ", your waitlist sign-ups and the messages you sent us from this address.\n\n"
	} else {
		writeTo := "write to us"
		if support != "" {
			writeTo += " at " + support
		}
		body += ". The account had not proved that it holds this address, so any waitlist sign-ups and messages " +
			"sent to us with it were kept: they may be someone else's. If they are yours and you want them deleted, " +
			writeTo + " from this address.\n\n"
	}
	body += "You can sign up again with this address at any time; it will be a new account.\n\n"
	if support != "" {
		body += "If you did not ask for this, write to us at " + support + ".\n\n"
	}
	body += "Salaula"
	return mail.Message{To: to, Subject: "Your Salaula account has been deleted", Body: body, Kind: "account_deleted"}
}
