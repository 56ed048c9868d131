package account

import (
	"context"
	"errors"
	"strings"
	"time"

	"salaula/internal/media"
	"salaula/internal/store"
)

// Export is one JSON document of everything Salaula holds about a person.
type Export struct {
	ExportedAt      time.Time       `json:"exported_at"`
	Account         AccountData     `json:"account"`
	Profile         *store.Profile  `json:"profile"`
	Images          []Image         `json:"images"`
	WaitlistSignups []Waitlist      `json:"waitlist_signups"`
	ContactMessages []Message       `json:"contact_messages"`
	Sessions        []Session       `json:"sessions"`
	Consents        []store.Consent `json:"consents"`
	// AddressNotProven says why WaitlistSignups and ContactMessages are
	// empty in a person's own export while the account has not proved its
	// address; absent otherwise.
	AddressNotProven string `json:"address_not_proven,omitempty"`
}

// addressNotProven is Export.AddressNotProven for the address email.
func addressNotProven(email string) string {
	return "The waitlist sign-ups and contact messages sent to Salaula with " + email + " are not in this file: " +
		"this account has not proved that it holds that address, and anyone can type an address. " +
		"To add them, open My account, press \"Send me a link\", open the link e-mailed to " + email +
		" and press \"Prove this address\"; then download your data again."
}

// AccountData is the sign-in account.
type AccountData struct {
	ID               string     `json:"id"`
	Email            string     `json:"email"`
	CreatedAt        time.Time  `json:"created_at"`
	LastSignInAt     *time.Time `json:"last_sign_in_at"`
	Confirmed        bool       `json:"confirmed"`
	EmailConfirmedAt *time.Time `json:"email_confirmed_at"`
	// EmailProven: the holder opened a link sent to the address (see Address).
	EmailProven   bool       `json:"email_proven"`
	EmailProvenAt *time.Time `json:"email_proven_at"`
}

// Image is one uploaded file: its public URL and what the server recorded.
type Image struct {
	URL         string    `json:"url"`
	ContentType string    `json:"content_type"`
	SizeBytes   int64     `json:"size_bytes"`
	UploadedAt  time.Time `json:"uploaded_at"`
	InProfile   bool      `json:"in_profile"`
}

// Waitlist is one waitlist sign-up under the person's e-mail (shown only
// once the account proved the address).
type Waitlist struct {
	Program        string     `json:"program"`
	CreatedAt      time.Time  `json:"created_at"`
	PagePath       string     `json:"page_path"`
	Referrer       string     `json:"referrer"`
	UTMSource      string     `json:"utm_source"`
	UTMMedium      string     `json:"utm_medium"`
	UTMCampaign    string     `json:"utm_campaign"`
	UTMTerm        string     `json:"utm_term"`
	UTMContent     string     `json:"utm_content"`
	UnsubscribedAt *time.Time `json:"unsubscribed_at"`
}

// Message is one contact message sent from the person's e-mail (shown only
// once the account proved the address).
type Message struct {
	CreatedAt   time.Time `json:"created_at"`
	FirstName   string    `json:"first_name"`
	LastName    string    `json:"last_name"`
	Email       string    `json:"email"`
	PhoneNumber string    `json:"phone_number"`
	Subject     string    `json:"subject"`
	Message     string    `json:"message"`
}

// Session is one signed-in device.
type Session struct {
	CreatedAt  time.Time `json:"created_at"`
	LastUsedAt time.Time `json:"last_used_at"`
	UserAgent  string    `json:"user_agent"`
	IP         string    `json:"ip"`
	Current    bool      `json:"current"`
}

// ExportOwn is what account-export answers: the caller's data, with the
// caller's session marked among the sessions and uploads not in the profile
// addressed under baseURL (the site's public URL). The waitlist sign-ups
// and contact messages sent with the account's address are in it only once
// the account proved the address; until then AddressNotProven says so. An
// account with two-step sign-in needs an aal2 session (ErrInsufficientAAL).
func (r *Rules) ExportOwn(ctx context.Context, c Caller, baseURL string) (*Export, error) {
	u, err := r.userByID(ctx, c.UserID)
	if err != nil {
		return nil, err
	}
	if err := r.checkAAL(ctx, c); err != nil {
		return nil, err
	}
	return r.export(ctx, u, c.SessionID, baseURL, u.EmailProvenAt != nil)
}

// ExportByEmail is `salaula admin user export EMAIL`: the same document for
// an operator answering a request by e-mail or letter (every row under the
// address, proven or not: the operator checks who asks), noted in the
// audit log.
func (r *Rules) ExportByEmail(ctx context.Context, actor, email, baseURL string) (*Export, error) {
	u, err := r.userByEmail(ctx, email)
	if err != nil {
		return nil, err
	}
	x, err := r.export(ctx, u, "", baseURL, true)
	if err != nil {
		return nil, err
	}
	return x, r.audit(ctx, actor, "user.export", u.Email)
}

// export collects u's data; byAddress adds the rows sent with its address.
func (r *Rules) export(ctx context.Context, u *store.User, currentSession, baseURL string, byAddress bool) (*Export, error) {
	x := &Export{ExportedAt: r.now(), Images: []Image{}, WaitlistSignups: []Waitlist{}, ContactMessages: []Message{}, Sessions: []Session{}}
	x.Account = AccountData{ID: u.ID, Email: u.Email, CreatedAt: u.CreatedAt, LastSignInAt: u.LastSignInAt,
		Confirmed: u.EmailConfirmedAt != nil, EmailConfirmedAt: u.EmailConfirmedAt,
		EmailProven: u.EmailProvenAt != nil, EmailProvenAt: u.EmailProvenAt}
	p, err := r.DB.ProfileByUser(ctx, u.ID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	x.Profile = p
	inProfile := map[string]string{} // object path -> URL as the profile has it
	if p != nil {
		for _, url := range p.ImageURLs() {
			if path, ok := media.PathFromPublicURL(url, media.Bucket); ok {
				inProfile[path] = url
			}
		}
	}
	objects, err := r.DB.MediaObjectsOf(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	for _, o := range objects {
		path := strings.TrimPrefix(o.Key, media.Bucket+"/")
		url, ok := inProfile[path]
		if !ok {
			url = strings.TrimRight(baseURL, "/") + "/storage/v1/object/public/" + o.Key
		}
		x.Images = append(x.Images, Image{URL: url, ContentType: o.ContentType, SizeBytes: o.Size, UploadedAt: o.UpdatedAt, InProfile: ok})
	}
	if byAddress {
		if x.WaitlistSignups, x.ContactMessages, err = r.sentWith(ctx, u.Email); err != nil {
			return nil, err
		}
	} else {
		x.AddressNotProven = addressNotProven(u.Email)
	}
	sessions, err := r.DB.ActiveSessionsOf(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	for _, s := range sessions {
		x.Sessions = append(x.Sessions, Session{CreatedAt: s.CreatedAt, LastUsedAt: s.UpdatedAt, UserAgent: s.UserAgent, IP: s.IP,
			Current: s.ID == currentSession})
	}
	if x.Consents, err = r.DB.ConsentsOf(ctx, u.ID); err != nil {
		return nil, err
	}
	return x, nil
}
