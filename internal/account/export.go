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
}

// AccountData is the sign-in account.
type AccountData struct {
	ID               string     `json:"id"`
	Email            string     `json:"email"`
	CreatedAt        time.Time  `json:"created_at"`
	LastSignInAt     *time.Time `json:"last_sign_in_at"`
	Confirmed        bool       `json:"confirmed"`
	EmailConfirmedAt *time.Time `json:"email_confirmed_at"`
}

// Image is one uploaded file: its public URL and what the server recorded.
type Image struct {
	URL         string    `json:"url"`
	ContentType string    `json:"content_type"`
	SizeBytes   int64     `json:"size_bytes"`
	UploadedAt  time.Time `json:"uploaded_at"`
	InProfile   bool      `json:"in_profile"`
}

// Waitlist is one waitlist sign-up under the person's e-mail.
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

// Message is one contact message sent from the person's e-mail.
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

// ExportOwn is what account-export answers: the caller's data, with
// currentSession marked among the sessions and uploads not in the profile
// addressed under baseURL (the site's public URL).
func (r *Rules) ExportOwn(ctx context.Context, userID, currentSession, baseURL string) (*Export, error) {
	u, err := r.DB.UserByID(ctx, userID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNoAccount
	}
	if err != nil {
		return nil, err
	}
	return r.export(ctx, u, currentSession, baseURL)
}

// ExportByEmail is `salaula admin user export EMAIL`: the same document for
// an operator answering a request by e-mail or letter, noted in the audit log.
func (r *Rules) ExportByEmail(ctx context.Context, actor, email, baseURL string) (*Export, error) {
	u, err := r.userByEmail(ctx, email)
	if err != nil {
		return nil, err
	}
	x, err := r.export(ctx, u, "", baseURL)
	if err != nil {
		return nil, err
	}
	return x, r.audit(ctx, actor, "user.export", u.Email)
}

func (r *Rules) export(ctx context.Context, u *store.User, currentSession, baseURL string) (*Export, error) {
	x := &Export{ExportedAt: r.now(), Images: []Image{}, WaitlistSignups: []Waitlist{}, ContactMessages: []Message{}, Sessions: []Session{}}
	x.Account = AccountData{ID: u.ID, Email: u.Email, CreatedAt: u.CreatedAt, LastSignInAt: u.LastSignInAt,
		Confirmed: u.EmailConfirmedAt != nil, EmailConfirmedAt: u.EmailConfirmedAt}
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
	signups, err := r.DB.WaitlistSignupsOf(ctx, u.Email)
	if err != nil {
		return nil, err
	}
	for _, s := range signups {
		x.WaitlistSignups = append(x.WaitlistSignups, Waitlist{Program: s.Program, CreatedAt: s.CreatedAt, PagePath: s.PagePath,
			Referrer: s.Referrer, UTMSource: s.UTMSource, UTMMedium: s.UTMMedium, UTMCampaign: s.UTMCampaign,
			UTMTerm: s.UTMTerm, UTMContent: s.UTMContent, UnsubscribedAt: s.UnsubscribedAt})
	}
	messages, err := r.DB.ContactMessagesFrom(ctx, u.Email)
	if err != nil {
		return nil, err
	}
	for _, m := range messages {
		x.ContactMessages = append(x.ContactMessages, Message{CreatedAt: m.CreatedAt, FirstName: m.FirstName, LastName: m.LastName,
			Email: m.Email, PhoneNumber: m.PhoneNumber, Subject: m.Subject, Message: m.Message})
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
