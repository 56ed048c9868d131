package server

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"maps"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"salaula/internal/config"
	"salaula/internal/mail"
	"salaula/internal/store"
	"salaula/internal/validate/validatetest"
)

// noFormLimit turns the forms rate limit off for tests that send many requests.
func noFormLimit(c *config.Config) { c.FormRateLimit = config.Rate{} }

// validContact is a contact form that passes every rule.
func validContact() map[string]any {
	return map[string]any{"firstName": "  Chanda ", "lastName": "Mwale", "email": "  Chanda.Mwale@Example.COM ",
		"phoneNumber": "+260 977 123456", "subject": "Unsolved issue", "message": "  My order from Kamwala has not arrived yet.  "}
}

// fieldsOf returns the "fields" object of a function error body.
func fieldsOf(t *testing.T, body map[string]any) map[string]string {
	t.Helper()
	out := map[string]string{}
	f, _ := body["fields"].(map[string]any)
	for k, v := range f {
		out[k], _ = v.(string)
	}
	return out
}

func count(t *testing.T, db *store.DB, table string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(context.Background(), `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestFormsFollowTheSharedValidationCases(t *testing.T) {
	eachEngine(t, noFormLimit, func(t *testing.T, env *testEnv) {
		for _, form := range []struct{ cases, path, table string }{
			{"contact", "/functions/v1/contact-form-submit", "contact_messages"},
			{"waitlist", "/functions/v1/waitlist-signup", "waitlist_signups"},
		} {
			valid := 0
			for _, tc := range validatetest.Load(t, form.cases) {
				res := env.do(t, "POST", form.path, []byte(tc.Input), nil)
				if len(tc.Errors) == 0 {
					wantStatus(t, res, http.StatusOK)
					if body := decode(t, res); body["success"] != true {
						t.Fatalf("%s/%s: body %v", form.cases, tc.Name, body)
					}
					valid++
					continue
				}
				wantStatus(t, res, http.StatusBadRequest)
				body := decode(t, res)
				if got := fieldsOf(t, body); !maps.Equal(got, tc.Errors) {
					t.Errorf("%s/%s: fields %v, want %v", form.cases, tc.Name, got, tc.Errors)
				}
				if body["error"] != "Please correct the highlighted fields and try again." {
					t.Errorf("%s/%s: error %v", form.cases, tc.Name, body["error"])
				}
			}
			// Only the valid cases were stored (waitlist: some repeat one address).
			if n := count(t, env.DB, form.table); n == 0 || n > valid {
				t.Fatalf("%s: %d rows stored for %d valid cases", form.table, n, valid)
			}
		}
	})
}

func TestContactMessageIsStoredAndMailedToSupport(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		ctx := context.Background()
		// supabase-js sends the anon key; the function answers with or without it.
		res := env.do(t, "POST", "/functions/v1/contact-form-submit", validContact(), map[string]string{"apikey": "anything"})
		wantStatus(t, res, http.StatusOK)
		if body := decode(t, res); body["success"] != true {
			t.Fatalf("body %v", body)
		}
		var got []store.ContactMessage
		env.DB.EachContactMessage(ctx, func(m *store.ContactMessage) error { got = append(got, *m); return nil })
		if len(got) != 1 {
			t.Fatalf("%d messages stored", len(got))
		}
		m := got[0]
		if m.FirstName != "Chanda" || m.Email != "chanda.mwale@example.com" || m.Subject != "Unsolved issue" ||
			m.Message != "My order from Kamwala has not arrived yet." || m.PhoneNumber != "+260977123456" {
			t.Fatalf("stored %+v", m)
		}
		if time.Since(m.CreatedAt) > time.Minute {
			t.Fatalf("created_at %v", m.CreatedAt)
		}
		sent, err := mail.Recent(ctx, env.DB, env.Config.SupportEmail, 5)
		if err != nil || len(sent) != 1 {
			t.Fatalf("mail to support: %v, %v", sent, err)
		}
		if sent[0].Kind != "contact" || !strings.Contains(sent[0].Subject, "Unsolved Issue") ||
			!strings.Contains(sent[0].Body, "Reply to: chanda.mwale@example.com") ||
			!strings.Contains(sent[0].Body, "My order from Kamwala has not arrived yet.") {
			t.Fatalf("mail %+v", sent[0])
		}
	})
}

func TestContactMessageIsKeptWhenTheMailFails(t *testing.T) {
	eachEngine(t, func(c *config.Config) { c.SupportEmail = "support@salaula.test\r\nBcc: x@example.com" }, func(t *testing.T, env *testEnv) {
		res := env.do(t, "POST", "/functions/v1/contact-form-submit", validContact(), nil)
		wantStatus(t, res, http.StatusOK)
		if n := count(t, env.DB, "contact_messages"); n != 1 {
			t.Fatalf("%d messages stored", n)
		}
		if n := count(t, env.DB, "outbox_emails") + count(t, env.DB, "sent_emails"); n != 0 {
			t.Fatalf("%d mails recorded", n)
		}
		if !strings.Contains(env.Logs.String(), "mail contact message (it is stored)") {
			t.Fatalf("mail failure not logged: %s", env.Logs.String())
		}
	})
}

func TestFormsRejectBadRequests(t *testing.T) {
	eachEngine(t, noFormLimit, func(t *testing.T, env *testEnv) {
		big := validContact()
		big["message"] = strings.Repeat("a", 70<<10)
		for _, path := range []string{"/functions/v1/contact-form-submit", "/functions/v1/waitlist-signup"} {
			for _, tc := range []struct {
				name    string
				body    any
				headers map[string]string
				status  int
				msg     string
			}{
				{"malformed JSON", `{"email": "a@b.co",`, nil, 400, "Request body is not valid JSON"},
				{"empty body", "", nil, 400, "Request body is empty: send a JSON object"},
				{"an array", `[1, 2]`, nil, 400, "Request body must be a JSON object"},
				{"a field of the wrong type", `{"email": 42}`, nil, 400, "Field email has the wrong type"},
				{"two objects", `{} {}`, nil, 400, "Request body must hold a single JSON object"},
				{"over 64 KiB", big, nil, 413, "Request body is too large (at most 64 KiB)"},
				{"form-encoded", "email=a%40b.co", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415, "Content-Type must be application/json"},
				{"plain text", `{"email":"a@b.co"}`, map[string]string{"Content-Type": "text/plain"}, 415, "Content-Type must be application/json"},
			} {
				res := env.do(t, "POST", path, tc.body, tc.headers)
				wantStatus(t, res, tc.status)
				if body := decode(t, res); body["error"] != tc.msg {
					t.Errorf("%s %s: error %v, want %q", path, tc.name, body["error"], tc.msg)
				}
			}
		}
		if n := count(t, env.DB, "contact_messages") + count(t, env.DB, "waitlist_signups"); n != 0 {
			t.Fatalf("%d rows stored from bad requests", n)
		}
	})
}

func TestBotTrapAnswersSuccessAndStoresNothing(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		c := validContact()
		c["website"] = "http://spam.example"
		res := env.do(t, "POST", "/functions/v1/contact-form-submit", c, nil)
		wantStatus(t, res, http.StatusOK)
		if body := decode(t, res); body["success"] != true {
			t.Fatalf("contact body %v", body)
		}
		res = env.do(t, "POST", "/functions/v1/waitlist-signup", map[string]any{"email": "bot@example.com", "programName": "Upcycling Initiative", "website": "x"}, nil)
		wantStatus(t, res, http.StatusOK)
		if body := decode(t, res); body["success"] != true || body["message"] != "You're on the list!" {
			t.Fatalf("waitlist body %v", body)
		}
		for _, table := range []string{"contact_messages", "waitlist_signups", "outbox_emails", "sent_emails"} {
			if n := count(t, env.DB, table); n != 0 {
				t.Fatalf("%s: %d rows after the bot trap", table, n)
			}
		}
	})
}

func TestFormsAreRateLimitedPerClient(t *testing.T) {
	eachEngine(t, func(c *config.Config) { c.FormRateLimit = config.Rate{Count: 2, Window: time.Minute} }, func(t *testing.T, env *testEnv) {
		wantStatus(t, env.do(t, "POST", "/functions/v1/contact-form-submit", validContact(), nil), 200)
		wantStatus(t, env.do(t, "POST", "/functions/v1/waitlist-signup", map[string]any{"email": "a@example.com", "programName": "Upcycling Initiative"}, nil), 200)
		for _, path := range []string{"/functions/v1/contact-form-submit", "/functions/v1/waitlist-signup"} {
			res := env.do(t, "POST", path, validContact(), nil)
			wantStatus(t, res, http.StatusTooManyRequests)
			if res.Header.Get("Retry-After") == "" {
				t.Fatal("no Retry-After")
			}
			if body := decode(t, res); body["error"] != "Too many requests. Please wait a few minutes and try again." {
				t.Fatalf("429 body %v", body)
			}
		}
		if n := count(t, env.DB, "contact_messages"); n != 1 {
			t.Fatalf("%d messages stored", n)
		}
	})
}

var unsubscribeLink = regexp.MustCompile(`(http\S+/functions/v1/waitlist-unsubscribe\?token=[A-Za-z0-9_.-]+)`)

var confirmLink = regexp.MustCompile(`(http\S+/functions/v1/waitlist-confirm\?token=[A-Za-z0-9_.-]+)`)

func TestWaitlistSignupIsStoredOnceWithItsSourceAndConfirmed(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		ctx := context.Background()
		signup := map[string]any{"email": " Mwila@Example.com ", "programName": "Wardrobe Clearance Program",
			"pagePath": "/wardrobeclearance", "referrer": "https://www.facebook.com/", "utm_source": "facebook",
			"utm_medium": "social", "utm_campaign": "launch", "utm_term": "thrift", "utm_content": strings.Repeat("c", 400)}
		wantStatus(t, env.do(t, "POST", "/functions/v1/waitlist-signup", signup, nil), http.StatusOK)
		first, err := env.DB.WaitlistSignupByEmail(ctx, "mwila@example.com", "Wardrobe Clearance Program")
		if err != nil {
			t.Fatal(err)
		}
		if first.PagePath != "/wardrobeclearance" || first.Referrer != "https://www.facebook.com/" || first.UTMSource != "facebook" ||
			first.UTMMedium != "social" || first.UTMCampaign != "launch" || first.UTMTerm != "thrift" || len(first.UTMContent) != 150 ||
			first.UnsubscribedAt != nil {
			t.Fatalf("stored %+v", first)
		}
		// The same person again (other case, other source): 200, the same
		// answer, nothing of the sign-up changes but its links' token; the
		// address gets the confirmation again, with the new links.
		again := map[string]any{"email": "MWILA@example.com", "programName": "Wardrobe Clearance Program", "pagePath": "/elsewhere"}
		res := env.do(t, "POST", "/functions/v1/waitlist-signup", again, nil)
		wantStatus(t, res, http.StatusOK)
		if body := decode(t, res); body["success"] != true {
			t.Fatalf("repeat body %v", body)
		}
		second, _ := env.DB.WaitlistSignupByEmail(ctx, "mwila@example.com", "Wardrobe Clearance Program")
		second.UnsubscribeTokenHash = first.UnsubscribeTokenHash
		if *second != *first || count(t, env.DB, "waitlist_signups") != 1 {
			t.Fatalf("repeat changed the row: %+v -> %+v", first, second)
		}
		sent, _ := mail.Recent(ctx, env.DB, "mwila@example.com", 5)
		if len(sent) != 2 || sent[0].Kind != "waitlist" || !strings.Contains(sent[0].Body, "Wardrobe Clearance Program") {
			t.Fatalf("confirmations %+v", sent)
		}
		link := unsubscribeLink.FindString(sent[0].Body)
		if !strings.HasPrefix(link, env.Config.PublicURL+"/functions/v1/waitlist-unsubscribe?token=") {
			t.Fatalf("no unsubscribe link in %q", sent[0].Body)
		}
		// The other program is a separate sign-up.
		wantStatus(t, env.do(t, "POST", "/functions/v1/waitlist-signup", map[string]any{"email": "mwila@example.com", "programName": "Upcycling Initiative"}, nil), 200)
		if n := count(t, env.DB, "waitlist_signups"); n != 2 {
			t.Fatalf("%d sign-ups, want 2", n)
		}
	})
}

// unsubscribeForm is how the unsubscribe page's button and a mail
// program's one-click unsubscribe (RFC 8058) POST.
var unsubscribeForm = map[string]string{"Content-Type": "application/x-www-form-urlencoded"}

func TestUnsubscribeLinkActsOnlyOnTheButton(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		ctx := context.Background()
		join := map[string]any{"email": "bwalya@example.com", "programName": "Upcycling Initiative"}
		wantStatus(t, env.do(t, "POST", "/functions/v1/waitlist-signup", join, nil), 200)
		sent, _ := mail.Recent(ctx, env.DB, "bwalya@example.com", 1)
		if len(sent) != 1 {
			t.Fatal("no confirmation")
		}
		path := strings.TrimPrefix(unsubscribeLink.FindString(sent[0].Body), env.Config.PublicURL)
		subscribed := func() bool {
			su, err := env.DB.WaitlistSignupByEmail(ctx, "bwalya@example.com", "Upcycling Initiative")
			if err != nil {
				t.Fatal(err)
			}
			return su.UnsubscribedAt == nil
		}
		// A mail system's link checker (HEAD, or GET as a person opens it)
		// unsubscribes no one: the page names the sign-up and offers a button.
		wantStatus(t, env.do(t, "HEAD", path, nil, nil), http.StatusOK)
		for range 2 {
			res := env.do(t, "GET", path, nil, nil)
			wantStatus(t, res, http.StatusOK)
			page, _ := io.ReadAll(res.Body)
			action, _, ok := linkForm(string(page))
			if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") || !ok || action != path ||
				!strings.Contains(string(page), "Unsubscribe from the Upcycling Initiative waitlist?") || !strings.Contains(string(page), "bwalya@example.com") {
				t.Fatalf("page %s", page)
			}
			// The page's policy allows its own inline style sheet (by its
			// hash) and a form to this site, nothing else; the link's token
			// leaves in no Referer.
			style := regexp.MustCompile(`<style>([^<]*)</style>`).FindSubmatch(page)
			if style == nil {
				t.Fatalf("no style sheet in %s", page)
			}
			sum := sha256.Sum256(style[1])
			csp := res.Header.Get("Content-Security-Policy")
			if !strings.HasPrefix(csp, "default-src 'none'; style-src 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"';") ||
				!strings.Contains(csp, "form-action 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "unsafe") ||
				strings.Contains(csp, "script") || res.Header.Get("Referrer-Policy") != "no-referrer" {
				t.Fatalf("unsubscribe page: CSP %q, Referrer-Policy %q", csp, res.Header.Get("Referrer-Policy"))
			}
		}
		if !subscribed() {
			t.Fatal("opening the link unsubscribed")
		}
		// The button unsubscribes; pressing it again is just as friendly.
		for range 2 {
			res := env.do(t, "POST", path, "", unsubscribeForm)
			wantStatus(t, res, http.StatusOK)
			page, _ := io.ReadAll(res.Body)
			if !strings.Contains(string(page), "You have been unsubscribed") || !strings.Contains(string(page), "bwalya@example.com") {
				t.Fatalf("page after the button %s", page)
			}
			if _, _, ok := linkForm(string(page)); ok {
				t.Fatalf("the page after unsubscribing offers a button: %s", page)
			}
		}
		if subscribed() {
			t.Fatal("the button did not unsubscribe")
		}
		// Opening the link later says so, with no button.
		res := env.do(t, "GET", path, nil, nil)
		page, _ := io.ReadAll(res.Body)
		if _, _, ok := linkForm(string(page)); ok || !strings.Contains(string(page), "You have been unsubscribed") {
			t.Fatalf("page of a used link %s", page)
		}
		su, _ := env.DB.WaitlistSignupByEmail(ctx, "bwalya@example.com", "Upcycling Initiative")
		if su.UnsubscribedAt == nil {
			t.Fatal("not marked unsubscribed")
		}
		// The link names the sign-up and carries a secret; a link whose ID
		// or secret was changed is not recognised, nor one that puts another
		// sign-up's ID before this link's secret.
		const base = "/functions/v1/waitlist-unsubscribe?token="
		id, secret, ok := strings.Cut(strings.TrimPrefix(path, base), ".")
		if !ok || id != su.ID || len(secret) < 40 {
			t.Fatalf("the link does not name sign-up %s with a secret: %s", su.ID, path)
		}
		other := map[string]any{"email": "chileshe@example.com", "programName": "Upcycling Initiative"}
		wantStatus(t, env.do(t, "POST", "/functions/v1/waitlist-signup", other, nil), 200)
		otherSU, err := env.DB.WaitlistSignupByEmail(ctx, "chileshe@example.com", "Upcycling Initiative")
		if err != nil {
			t.Fatal(err)
		}
		flip := func(s string, i int) string {
			b := []byte(s)
			b[i] = map[bool]byte{true: 'b', false: 'a'}[b[i] == 'a']
			return string(b)
		}
		for _, bad := range []string{"/functions/v1/waitlist-unsubscribe", base + "deadbeef", base + strings.Repeat("x", 5000),
			base + flip(id, 35) + "." + secret, base + id + "." + flip(secret, len(secret)/2), base + otherSU.ID + "." + secret,
			base + id + ".", base + id, base + "not-an-id." + secret, base + strings.ToUpper(id) + "." + secret} {
			for _, method := range []string{"GET", "POST"} {
				res := env.do(t, method, bad, "List-Unsubscribe=One-Click", unsubscribeForm)
				wantStatus(t, res, http.StatusNotFound)
				page, _ := io.ReadAll(res.Body)
				if !strings.Contains(string(page), "Link not recognised") {
					t.Fatalf("%s %s: page %s", method, bad, page)
				}
			}
		}
		if o, _ := env.DB.WaitlistSignupByEmail(ctx, "chileshe@example.com", "Upcycling Initiative"); o.UnsubscribedAt != nil {
			t.Fatal("a forged link unsubscribed someone else")
		}
		// Joining again after unsubscribing changes nothing: the address
		// gets an e-mail whose confirm link's button puts it back.
		wantStatus(t, env.do(t, "POST", "/functions/v1/waitlist-signup", join, nil), 200)
		sent, _ = mail.Recent(ctx, env.DB, "bwalya@example.com", 5)
		if subscribed() || len(sent) != 2 || sent[0].Kind != "waitlist_rejoin" {
			t.Fatalf("rejoin: subscribed %v, %d mails", subscribed(), len(sent))
		}
		confirmPath := strings.TrimPrefix(confirmLink.FindString(sent[0].Body), env.Config.PublicURL)
		wantStatus(t, env.do(t, "GET", confirmPath, nil, nil), http.StatusOK)
		if subscribed() {
			t.Fatal("opening the confirm link subscribed again")
		}
		wantStatus(t, env.do(t, "POST", confirmPath, "", unsubscribeForm), http.StatusSeeOther)
		if !subscribed() {
			t.Fatal("the confirm link's button did not subscribe again")
		}
	})
}

// An address is signed up at most once per program, however often and
// however concurrently it signs up, while every sign-up is answered 200;
// each gets its one e-mail (a repeat is answered by e-mail, never on the
// screen). The confirmation is queued with the sign-up in one transaction,
// so it cannot be lost either.
func TestWaitlistSignsUpOncePerAddressAndProgram(t *testing.T) {
	eachEngine(t, noFormLimit, func(t *testing.T, env *testEnv) {
		ctx := context.Background()
		var wg sync.WaitGroup
		codes := make([]int, 20)
		for i := range codes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				email := "chipo@example.com"
				if i%2 == 1 {
					email = " CHIPO@example.com"
				}
				res := env.do(t, "POST", "/functions/v1/waitlist-signup", map[string]any{"email": email, "programName": "Upcycling Initiative"}, nil)
				codes[i] = res.StatusCode
			}()
		}
		wg.Wait()
		for i, c := range codes {
			if c != http.StatusOK {
				t.Fatalf("sign-up %d answered %d", i, c)
			}
		}
		for i := 0; i < 3; i++ {
			wantStatus(t, env.do(t, "POST", "/functions/v1/waitlist-signup", map[string]any{"email": "chipo@example.com", "programName": "Upcycling Initiative"}, nil), 200)
		}
		sent, _ := mail.Recent(ctx, env.DB, "chipo@example.com", 50)
		if len(sent) != 23 || count(t, env.DB, "waitlist_signups") != 1 {
			t.Fatalf("%d e-mails, %d sign-ups; want 23 (one per sign-up: a repeat is answered by e-mail) and 1", len(sent), count(t, env.DB, "waitlist_signups"))
		}
		// The other program is its own list with its own confirmation.
		wantStatus(t, env.do(t, "POST", "/functions/v1/waitlist-signup", map[string]any{"email": "chipo@example.com", "programName": "Wardrobe Clearance Program"}, nil), 200)
		if sent, _ = mail.Recent(ctx, env.DB, "chipo@example.com", 50); len(sent) != 24 {
			t.Fatalf("%d confirmations after the second program", len(sent))
		}
	})
}

// Delivering without SMTP logs who an e-mail is for and its links, never
// the whole body (a contact message's text stays out of the log).
func TestMailLogShowsLinksNotBodies(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		ctx := context.Background()
		c := validContact()
		c["message"] = "Private: my address is Plot 12, Kabulonga."
		wantStatus(t, env.do(t, "POST", "/functions/v1/contact-form-submit", c, nil), 200)
		wantStatus(t, env.do(t, "POST", "/functions/v1/waitlist-signup", map[string]any{"email": "mutale@example.com", "programName": "Upcycling Initiative"}, nil), 200)
		// Without SMTP the e-mails were recorded as sent via the log when
		// their changes committed; the sender writes them to the log.
		if n := env.Mailer.LogRecorded(); n != 2 {
			t.Fatalf("logged %d e-mails, want 2", n)
		}
		logs := env.Logs.String()
		if strings.Contains(logs, "Kabulonga") {
			t.Fatalf("the contact message's text is in the log: %s", logs)
		}
		if !strings.Contains(logs, "/functions/v1/waitlist-unsubscribe?token=") || !strings.Contains(logs, `"to":"mutale@example.com"`) {
			t.Fatalf("the log lacks the unsubscribe link: %s", logs)
		}
		for _, to := range []string{"mutale@example.com", env.Config.SupportEmail} {
			if sent, _ := mail.Recent(ctx, env.DB, to, 1); len(sent) != 1 || sent[0].State != "sent" || sent[0].Via != "log" {
				t.Fatalf("mail to %s: %+v", to, sent)
			}
		}
	})
}

// Unsubscribe links from before the sign-up's ID was in them still
// unsubscribe: the first ones (only the bare SHA-256 of the token stored)
// and those of 24 November 2026 ("<time>.<opaque>", the time prefix kept
// before the hash); so do links with the ID whose sign-up kept the whole
// SHA-256. New sign-ups keep only the first 32 hex characters of the
// SHA-256 of their token.
func TestWaitlistUnsubscribeKeepsOldLinksWorking(t *testing.T) {
	eachEngine(t, func(c *config.Config) { c.FormRateLimit = config.Rate{} }, func(t *testing.T, env *testEnv) {
		ctx := context.Background()
		const second = "019ab5c0d1e2.Secnd-Style_token"
		withID := store.NewOrderedID()
		for email, tok := range map[string]string{"old@example.com": "OldStyleToken_abc-123", "second@example.com": second,
			"whole@example.com": withID + ".Whole-SHA256_secret"} {
			old := &store.WaitlistSignup{Email: email, Program: "Upcycling Initiative", UnsubscribeTokenHash: hashToken(tok)}
			if tok == second {
				old.UnsubscribeTokenHash = "019ab5c0d1e2." + hashToken(tok)
			}
			if email == "whole@example.com" {
				old.ID = withID
			}
			if _, err := env.DB.JoinWaitlist(ctx, old, store.WaitlistJoin{}); err != nil {
				t.Fatal(err)
			}
			wantStatus(t, env.do(t, "GET", "/functions/v1/waitlist-unsubscribe?token="+tok, nil, nil), http.StatusOK)
			if su, _ := env.DB.WaitlistSignupByEmail(ctx, email, "Upcycling Initiative"); su.UnsubscribedAt != nil {
				t.Fatalf("opening an old link (%s) unsubscribed", tok)
			}
			wantStatus(t, env.do(t, "POST", "/functions/v1/waitlist-unsubscribe?token="+tok, "", unsubscribeForm), http.StatusOK)
			if su, _ := env.DB.WaitlistSignupByEmail(ctx, email, "Upcycling Initiative"); su.UnsubscribedAt == nil {
				t.Fatalf("an old link (%s) did not unsubscribe", tok)
			}
		}
		wantStatus(t, env.do(t, "POST", "/functions/v1/waitlist-signup", map[string]any{"email": "new@example.com", "programName": "Upcycling Initiative"}, nil), 200)
		su, err := env.DB.WaitlistSignupByEmail(ctx, "new@example.com", "Upcycling Initiative")
		if err != nil {
			t.Fatal(err)
		}
		sent, _ := mail.Recent(ctx, env.DB, "new@example.com", 1)
		tok := strings.TrimPrefix(unsubscribeLink.FindString(sent[0].Body), env.Config.PublicURL+"/functions/v1/waitlist-unsubscribe?token=")
		if su.UnsubscribeTokenHash != hashToken(tok)[:32] || strings.Contains(sent[0].Body, su.UnsubscribeTokenHash) {
			t.Fatalf("stored %q for the token %q", su.UnsubscribeTokenHash, tok)
		}
	})
}
