// Package analytics is Salaula's first-party, cookie-free analytics:
// it takes the page views the app sends and the funnel's
// milestones the server counts, keeps them as raw events for RawRetention,
// rolls them up into daily counts and answers the console's report.
//
// A visitor is a hash of a daily random salt, the client IP and the user
// agent: the salt is replaced every UTC day and the old one deleted, so no
// one can later tie a count to a person. Neither the IP nor the user agent
// is stored. Browsers that send DNT: 1 or Sec-GPC: 1, and bots, are not
// counted at all.
package analytics

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"salaula/internal/apierr"
	"salaula/internal/store"
	"salaula/internal/validate"
)

// MaxBody is the largest event body accepted, in bytes.
const MaxBody = 2 << 10

const msgTooLarge = "The event is too large (at most 2 KiB)"

// RawRetention is how long raw events are kept; the daily roll-up stays.
const RawRetention = 30 * 24 * time.Hour

// Event names. PageView is the only one a client may send; AccountCreated
// and OnboardingFinished are the funnel's milestones, counted by the server
// when they happen. WaitlistJoined names the funnel's step of waitlist
// sign-ups, which are counted from the waitlist's daily roll-up rather than
// as events.
const (
	PageView           = "pageview"
	WaitlistJoined     = "waitlist_joined"
	AccountCreated     = "account_created"
	OnboardingFinished = "onboarding_finished"
)

// RolePaths are the pages the role choice screen leads to (spec section 2):
// a visitor who views one of them on a day has chosen a role that day. The
// choice itself happens only in the browser, so the funnel's role_chosen
// step counts these visitors.
var RolePaths = []string{"/sellersignup", "/buyersignup", "/buyerandsellersignup", "/onboarding"}

// Longest kept values, in characters; longer ones are cut.
const (
	maxPath = 200
	maxHost = 100
	maxUTM  = 100
)

// Hit is one page view as the app sends it.
type Hit struct {
	Name        string `json:"name"`
	Path        string `json:"path"`
	Referrer    string `json:"referrer"`
	UTMSource   string `json:"utm_source"`
	UTMMedium   string `json:"utm_medium"`
	UTMCampaign string `json:"utm_campaign"`
}

// event is a hit made ready to store.
type event struct {
	name, path, referrerHost, utmSource, utmMedium, utmCampaign string
}

// Parse reads one event body (JSON, at most MaxBody bytes) from r, whose
// declared length is length (-1 when unknown; one over MaxBody is refused
// before anything is read). It returns an Invalid error for a body the client
// must correct.
func Parse(r io.Reader, length int64) (Hit, error) {
	var h Hit
	if length > MaxBody {
		return h, apierr.New(apierr.Invalid, msgTooLarge)
	}
	body, err := io.ReadAll(io.LimitReader(r, MaxBody+1))
	if err != nil {
		return h, apierr.New(apierr.Invalid, "The event could not be read")
	}
	if len(body) > MaxBody {
		return h, apierr.New(apierr.Invalid, msgTooLarge)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return h, apierr.New(apierr.Invalid, "The event is empty: send a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		var typeErr *json.UnmarshalTypeError
		switch {
		case errors.As(err, &typeErr) && typeErr.Field != "":
			return h, apierr.New(apierr.Invalid, "Field "+typeErr.Field+" must be a string")
		case errors.As(err, &typeErr):
			return h, apierr.New(apierr.Invalid, "The event must be a JSON object")
		case strings.HasPrefix(err.Error(), "json: unknown field"):
			return h, apierr.New(apierr.Invalid, "Unknown field "+strings.TrimPrefix(err.Error(), "json: unknown field ")+
				": an event has name, path, referrer, utm_source, utm_medium and utm_campaign")
		default:
			return h, apierr.New(apierr.Invalid, "The event is not valid JSON")
		}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return h, apierr.New(apierr.Invalid, "The event must be one JSON object")
	}
	if h.Name != PageView {
		return h, apierr.New(apierr.Invalid, `Field name must be "pageview"`)
	}
	if !strings.HasPrefix(h.Path, "/") || strings.HasPrefix(h.Path, "//") {
		return h, apierr.New(apierr.Invalid, "Field path must be the page's path, starting with /")
	}
	if !utf8.ValidString(h.Path + h.Referrer + h.UTMSource + h.UTMMedium + h.UTMCampaign) {
		return h, apierr.New(apierr.Invalid, "The event's text must be UTF-8")
	}
	if e := validate.RequestText(h); e != nil {
		return h, apierr.New(apierr.Invalid, e.Sentence())
	}
	return h, nil
}

// clean turns a valid hit into the event stored: the path without its query
// or fragment (whose utm_* parameters fill the fields left empty), the
// referrer's host only, dropped when it is one of selfHosts.
func clean(h Hit, selfHosts []string) event {
	e := event{name: PageView, utmSource: h.UTMSource, utmMedium: h.UTMMedium, utmCampaign: h.UTMCampaign}
	path, _, _ := strings.Cut(h.Path, "#")
	path, query, _ := strings.Cut(path, "?")
	if q, _ := url.ParseQuery(query); len(q) > 0 {
		fill := func(field *string, key string) {
			if strings.TrimSpace(*field) == "" {
				*field = q.Get(key)
			}
		}
		fill(&e.utmSource, "utm_source")
		fill(&e.utmMedium, "utm_medium")
		fill(&e.utmCampaign, "utm_campaign")
	}
	if p, err := url.PathUnescape(path); err == nil && utf8.ValidString(p) {
		path = p
	}
	if len(path) > 1 {
		path = strings.TrimRight(path, "/")
		if path == "" {
			path = "/"
		}
	}
	e.path = clip(path, maxPath)
	e.referrerHost = clip(ReferrerHost(h.Referrer, selfHosts), maxHost)
	e.utmSource = clip(e.utmSource, maxUTM)
	e.utmMedium = clip(e.utmMedium, maxUTM)
	e.utmCampaign = clip(e.utmCampaign, maxUTM)
	return e
}

// ReferrerHost is the host of a referrer URL, lower case, without a leading
// "www." (or a mobile "m." and Facebook's "l."/"lm." link shims), "" for no
// referrer, one that is not a URL, or one of selfHosts (a visit from this
// site's own pages is not a source).
func ReferrerHost(ref string, selfHosts []string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return ""
	}
	u, err := url.Parse(ref)
	if err != nil || u.Hostname() == "" {
		return ""
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	for _, self := range selfHosts {
		if self != "" && strings.EqualFold(host, self) {
			return ""
		}
	}
	for _, p := range []string{"www.", "m.", "l.", "lm.", "mobile."} {
		if rest, ok := strings.CutPrefix(host, p); ok && strings.Contains(rest, ".") {
			host = rest
			break
		}
	}
	return host
}

// clip trims s and cuts it to at most max characters.
func clip(s string, max int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return string([]rune(s)[:max])
}

// Private reports whether the browser asked not to be tracked (DNT: 1 or
// Sec-GPC: 1, given as the two headers' values).
func Private(dnt, gpc string) bool {
	return strings.TrimSpace(dnt) == "1" || strings.TrimSpace(gpc) == "1"
}

// botMarks are pieces of the user agents of crawlers, link previewers,
// monitors, scripts and headless browsers (lower case).
var botMarks = []string{
	"bot", "crawl", "spider", "slurp", "archiver", "facebookexternalhit", "facebookcatalog", "whatsapp",
	"telegram", "preview", "headless", "phantomjs", "selenium", "puppeteer", "lighthouse", "pagespeed",
	"pingdom", "uptime", "monitor", "curl/", "wget/", "python-", "go-http-client", "java/", "okhttp",
	"httpclient", "axios/", "node-fetch", "undici", "libwww", "scrapy", "feedfetcher", "mediapartners",
}

// IsBot reports whether a user agent is a bot's (an empty one included).
func IsBot(ua string) bool {
	ua = strings.ToLower(strings.TrimSpace(ua))
	if ua == "" || !strings.Contains(ua, "mozilla/") && !strings.Contains(ua, "opera") {
		return true
	}
	for _, m := range botMarks {
		if strings.Contains(ua, m) {
			return true
		}
	}
	return false
}

// Collector records events into db.
type Collector struct {
	db    *store.DB
	now   func() time.Time
	salts *salts
}

// New returns the collector of db; now is the clock (time.Now when nil).
func New(db *store.DB, now func() time.Time) *Collector {
	if now == nil {
		now = time.Now
	}
	return &Collector{db: db, now: now, salts: newSalts(db)}
}

// Day is the UTC day of t as YYYY-MM-DD, the key of every analytics table.
func Day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// Record stores one page view from the client at ip with user agent ua.
// Views of the console (/admin) are not counted. selfHosts are this site's
// host names, so that moving between its pages is no referral.
func (c *Collector) Record(ctx context.Context, h Hit, ip, ua string, selfHosts ...string) error {
	e := clean(h, selfHosts)
	if e.path == "/admin" || strings.HasPrefix(e.path, "/admin/") {
		return nil
	}
	day := Day(c.now())
	visitor, err := c.salts.visitor(ctx, day, ip, ua)
	if err != nil {
		return err
	}
	return c.db.AddAnalyticsEvent(ctx, store.AnalyticsEvent{Day: day, Name: e.name, Visitor: visitor, Path: e.path,
		ReferrerHost: e.referrerHost, UTMSource: e.utmSource, UTMMedium: e.utmMedium, UTMCampaign: e.utmCampaign})
}

// Milestone counts one funnel milestone (AccountCreated,
// OnboardingFinished) now, in its own write. It carries no visitor.
func (c *Collector) Milestone(ctx context.Context, name string) error {
	return c.db.AddAnalyticsEvent(ctx, store.AnalyticsEvent{Day: Day(c.now()), Name: name})
}
