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
}

// DeleteOwn is what account-delete does: with the account's password,
// delete the account and everything held about it, then send a
// confirmation. A wrong password is ErrWrongPassword and changes nothing.
func (r *Rules) DeleteOwn(ctx context.Context, userID, pw string) (*Deleted, error) {
	u, err := r.DB.UserByID(ctx, userID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNoAccount
	}
	if err != nil {
		return nil, err
	}
	if err := checkPassword(u, pw); err != nil {
		return nil, err
	}
	return r.forget(ctx, u, true)
}

// DeleteByEmail is `salaula admin user delete EMAIL`: the same for an
// operator answering a request by e-mail or letter, noted in the audit log.
func (r *Rules) DeleteByEmail(ctx context.Context, actor, email string) (*Deleted, error) {
	u, err := r.userByEmail(ctx, email)
	if err != nil {
		return nil, err
	}
	d, err := r.forget(ctx, u, true)
	if err != nil {
		return nil, err
	}
	return d, r.audit(ctx, actor, "user.delete", u.Email)
}

// forget deletes u: in one transaction every row held about it (see
// store.DeletePerson), then its uploaded files (their public URLs answer 404
// from then on), then the e-mails recorded for its address; and, when
// notify is set, sends the confirmation. Its sessions are gone, so its
// access and refresh tokens are refused everywhere at once.
func (r *Rules) forget(ctx context.Context, u *store.User, notify bool) (*Deleted, error) {
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
	rows, err := r.DB.DeletePerson(ctx, u.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNoAccount
	}
	if err != nil {
		return nil, err
	}
	d := &Deleted{Email: u.Email, Rows: rows}
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
	if d.Rows["outbox_emails"], err = mail.ForgetRecipient(ctx, r.DB, u.Email); err != nil {
		r.logger().Error("delete account: forget e-mails", "err", err)
	}
	if notify && r.Mailer != nil {
		if err := r.Mailer.Send(ctx, confirmation(u.Email, r.SupportEmail)); err != nil {
			r.logger().Error("delete account: send confirmation", "err", err)
		}
	}
	if len(failed) > 0 {
		return d, fmt.Errorf("the account is deleted but %d file(s) could not be removed: %s", len(failed), strings.Join(failed, ", "))
	}
	return d, nil
}

// confirmation is the e-mail that tells a person their account is gone.
func confirmation(to, support string) mail.Message {
	body := "Hello,\n\n" +
		"Your Salaula account (" + to + ") has been deleted, as you asked. With it we deleted your profile, " +
		"your photos and logos, your sign-in sessions, your waitlist sign-ups and the messages you sent us " +
		"from this address.\n\n" +
		"You can sign up again with this address at any time; it will be a new account.\n\n"
	if support != "" {
		body += "If you did not ask for this, write to us at " + support + ".\n\n"
	}
	body += "Salaula"
	return mail.Message{To: to, Subject: "Your Salaula account has been deleted", Body: body, Kind: "account_deleted"}
}
