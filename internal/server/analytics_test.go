package server

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"salaula/internal/config"
)

// A browser's user agent (not a bot's).
const browserUA = "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"

// sendEvent posts an analytics event body with the given content type and
// extra headers (a browser's user agent unless headers give one).
func (e *testEnv) sendEvent(t *testing.T, body, contentType string, headers map[string]string) *http.Response {
	t.Helper()
	h := map[string]string{"User-Agent": browserUA, "Content-Type": contentType}
	for k, v := range headers {
		h[k] = v
	}
	return e.do(t, "POST", "/analytics/v1/event", body, h)
}

// wantAccepted wants 202 with an empty body.
func wantAccepted(t *testing.T, res *http.Response) {
	t.Helper()
	wantStatus(t, res, http.StatusAccepted)
	if b, _ := io.ReadAll(res.Body); len(b) != 0 {
		t.Fatalf("202 with a body: %q", b)
	}
}

func pageview(path, referrer string) string {
	return fmt.Sprintf(`{"name":"pageview","path":%q,"referrer":%q}`, path, referrer)
}

func TestAnalyticsEventIsStoredWithoutPersonalData(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		// sendBeacon with a string sends text/plain; JSON is taken too.
		wantAccepted(t, env.sendEvent(t, pageview("/about?utm_source=radio&utm_campaign=launch&x=1#team", "https://www.facebook.com/some/post"), "text/plain;charset=UTF-8", nil))
		wantAccepted(t, env.sendEvent(t, `{"name":"pageview","path":"/mens","utm_source":"poster"}`, "application/json", nil))
		rows, err := env.DB.Query(t.Context(), `SELECT name, visitor, path, referrer_host, utm_source, utm_campaign FROM analytics_events ORDER BY path`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var got []string
		var visitors []string
		for rows.Next() {
			var name, visitor, path, ref, src, camp string
			if err := rows.Scan(&name, &visitor, &path, &ref, &src, &camp); err != nil {
				t.Fatal(err)
			}
			got = append(got, strings.Join([]string{name, path, ref, src, camp}, "|"))
			visitors = append(visitors, visitor)
		}
		want := []string{"pageview|/about|facebook.com|radio|launch", "pageview|/mens||poster|"}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("stored events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		// The same browser is one visitor, and neither its IP nor its user agent is kept.
		if visitors[0] != visitors[1] || len(visitors[0]) != 16 {
			t.Fatalf("visitor hashes %q", visitors)
		}
		for _, v := range visitors {
			if strings.Contains(v, "127.0.0.1") || strings.Contains(v, "Mozilla") {
				t.Fatalf("visitor %q carries the IP or user agent", v)
			}
		}
		// No cookie is set.
		res := env.sendEvent(t, pageview("/", ""), "text/plain", nil)
		wantAccepted(t, res)
		if c := res.Header.Values("Set-Cookie"); len(c) > 0 {
			t.Fatalf("Set-Cookie %v", c)
		}
	})
}

func TestAnalyticsIgnoresDoNotTrackAndBots(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		for _, h := range []map[string]string{
			{"DNT": "1"},
			{"Sec-GPC": "1"},
			{"User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"},
			{"User-Agent": "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)"},
			{"User-Agent": "curl/8.5.0"},
			{"User-Agent": ""},
		} {
			wantAccepted(t, env.sendEvent(t, pageview("/", "https://google.com/"), "text/plain", h))
		}
		// The console's own pages are not counted.
		wantAccepted(t, env.sendEvent(t, pageview("/admin/waitlist", ""), "text/plain", nil))
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM analytics_events`); n != 0 {
			t.Fatalf("%d events stored from DNT/GPC browsers, bots and the console", n)
		}
		// DNT: 0 is no request not to be tracked.
		wantAccepted(t, env.sendEvent(t, pageview("/", ""), "text/plain", map[string]string{"DNT": "0"}))
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM analytics_events`); n != 1 {
			t.Fatalf("%d events stored, want 1", n)
		}
	})
}

func TestAnalyticsEventBadInput(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		for _, c := range []struct {
			body, contentType string
			status            int
			msg               string
		}{
			{`{"name":"pageview","path":"/` + strings.Repeat("a", 2100) + `"}`, "text/plain", 400, "The event is too large (at most 2 KiB)"},
			{`{"name":"pageview",`, "text/plain", 400, "The event is not valid JSON"},
			{`not json`, "application/json", 400, "The event is not valid JSON"},
			{``, "text/plain", 400, "The event is empty: send a JSON object"},
			{`[1]`, "text/plain", 400, "The event must be a JSON object"},
			{`{"name":"pageview","path":"/"} {}`, "text/plain", 400, "The event must be one JSON object"},
			{`{"name":"pageview","path":5}`, "text/plain", 400, "Field path must be a string"},
			{`{"name":"waitlist_joined","path":"/"}`, "text/plain", 400, `Field name must be "pageview"`},
			{`{"path":"/"}`, "text/plain", 400, `Field name must be "pageview"`},
			{`{"name":"pageview","path":"about"}`, "text/plain", 400, "Field path must be the page's path, starting with /"},
			{`{"name":"pageview","path":"//evil.example/x"}`, "text/plain", 400, "Field path must be the page's path, starting with /"},
			{`{"name":"pageview","path":"/","email":"a@b.c"}`, "text/plain", 400, `Unknown field "email": an event has name, path, referrer, utm_source, utm_medium and utm_campaign`},
			{`{"name":"pageview","path":"/"}`, "application/x-www-form-urlencoded", 415, "Send the event as JSON (application/json or text/plain)"},
		} {
			res := env.sendEvent(t, c.body, c.contentType, nil)
			wantStatus(t, res, c.status)
			if body := decode(t, res); body["error"] != c.msg {
				t.Errorf("%.60s: error %q, want %q", c.body, body["error"], c.msg)
			}
		}
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM analytics_events`); n != 0 {
			t.Fatalf("%d bad events stored", n)
		}
	})
}

func TestAnalyticsEventRateLimit(t *testing.T) {
	eachEngine(t, func(c *config.Config) { c.AnalyticsRate = config.Rate{Count: 3, Window: time.Minute} }, func(t *testing.T, env *testEnv) {
		for range 3 {
			wantAccepted(t, env.sendEvent(t, pageview("/", ""), "text/plain", nil))
		}
		res := env.sendEvent(t, pageview("/", ""), "text/plain", nil)
		wantStatus(t, res, http.StatusTooManyRequests)
		if res.Header.Get("Retry-After") == "" {
			t.Error("429 without Retry-After")
		}
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM analytics_events`); n != 3 {
			t.Fatalf("%d events stored, want 3", n)
		}
	})
}

func TestAdminAnalyticsCountsTodayAndTheFunnel(t *testing.T) {
	eachEngine(t, noFormLimit, func(t *testing.T, env *testEnv) {
		op := env.newOperator(t, "founder@example.com") // account 1
		ua2 := map[string]string{"User-Agent": browserUA + " second"}
		// Visitor 1 comes from the radio and views three pages.
		for _, p := range []string{"/?utm_source=radio&utm_campaign=launch", "/about", "/womens"} {
			ref := ""
			if p[1] == '?' {
				ref = "https://l.facebook.com/"
			}
			wantAccepted(t, env.sendEvent(t, pageview(p, ref), "text/plain", nil))
		}
		wantAccepted(t, env.sendEvent(t, pageview("/", ""), "text/plain", ua2)) // visitor 2
		wantAccepted(t, env.sendEvent(t, pageview("/sellersignup?role=seller", ""), "text/plain", ua2))
		// Milestones: a waitlist sign-up (a repeat is not counted twice), an
		// account, its onboarding (both halves: finished once).
		for range 2 {
			wantStatus(t, env.do(t, "POST", "/functions/v1/waitlist-signup", map[string]any{"email": "mutale@example.com", "programName": "Upcycling Initiative"}, nil), 200)
		}
		env.signUp(t, "shopper@example.com", goodPassword) // account 2
		u := newUser(t, env, "chipo@example.com")          // made in the store directly: no milestone
		wantStatus(t, env.do(t, http.MethodPost, "/functions/v1/onboard-new-user", validProfile(u), u.auth(env)), 200)
		logo := env.mustUpload(t, u, u.ID+"/logos/1.jpg", testJPEG(t, 8, 8))
		wantStatus(t, env.do(t, http.MethodPost, "/functions/v1/onboard-seller", validSeller(u, logo), u.auth(env)), 200)

		today := time.Now().UTC().Format(time.DateOnly)
		got := env.adminGet(t, "/admin/v1/analytics", op)
		if got["to"] != today || got["from"] != time.Now().UTC().AddDate(0, 0, -29).Format(time.DateOnly) {
			t.Fatalf("default range %v..%v", got["from"], got["to"])
		}
		days := got["days"].([]any)
		if len(days) != 30 {
			t.Fatalf("%d days, want 30", len(days))
		}
		last := days[29].(map[string]any)
		if !jsonEqual(last, map[string]any{"day": today, "visitors": 2, "pageviews": 5, "waitlist": 1, "accounts": 2}) {
			t.Fatalf("today = %v", last)
		}
		if !jsonEqual(days[0], map[string]any{"day": got["from"], "visitors": 0, "pageviews": 0, "waitlist": 0, "accounts": 0}) {
			t.Fatalf("first day = %v", days[0])
		}
		want := map[string]any{
			"totals":        map[string]any{"visitors": 2, "pageviews": 5},
			"top_pages":     []any{map[string]any{"path": "/", "visitors": 2, "pageviews": 2}, map[string]any{"path": "/about", "visitors": 1, "pageviews": 1}, map[string]any{"path": "/sellersignup", "visitors": 1, "pageviews": 1}, map[string]any{"path": "/womens", "visitors": 1, "pageviews": 1}},
			"referrers":     []any{map[string]any{"host": "facebook.com", "visitors": 1}},
			"utm_sources":   []any{map[string]any{"source": "radio", "visitors": 1}},
			"utm_campaigns": []any{map[string]any{"campaign": "launch", "visitors": 1}},
			"funnel": []any{
				map[string]any{"step": "visitors", "count": 2, "rate": nil},
				map[string]any{"step": "waitlist_joined", "count": 1, "rate": 0.5},
				map[string]any{"step": "account_created", "count": 2, "rate": 2},
				map[string]any{"step": "role_chosen", "count": 1, "rate": 0.5},
				map[string]any{"step": "onboarding_finished", "count": 1, "rate": 1},
			},
		}
		for k, v := range want {
			if !jsonEqual(got[k], v) {
				t.Errorf("%s = %v\nwant %v", k, got[k], v)
			}
		}
	})
}

func TestAdminAnalyticsRangeAndAccess(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		op := env.newOperator(t, "founder@example.com")
		// A 366-day range ending today, so that the operator's account,
		// made today, is in it.
		today := time.Now().UTC()
		day := func(d int) string { return today.AddDate(0, 0, d).Format(time.DateOnly) }
		got := env.adminGet(t, "/admin/v1/analytics?from="+day(-365)+"&to="+day(0), op)
		if len(got["days"].([]any)) != 366 || got["from"] != day(-365) || got["to"] != day(0) {
			t.Fatalf("366-day range: %d days %v..%v", len(got["days"].([]any)), got["from"], got["to"])
		}
		// The operator's account is the only thing counted: rates are null
		// after a step of 0, and 0 after a step that is not.
		wantFunnel := []any{
			map[string]any{"step": "visitors", "count": 0, "rate": nil},
			map[string]any{"step": "waitlist_joined", "count": 0, "rate": nil},
			map[string]any{"step": "account_created", "count": 1, "rate": nil},
			map[string]any{"step": "role_chosen", "count": 0, "rate": 0},
			map[string]any{"step": "onboarding_finished", "count": 0, "rate": nil},
		}
		if !jsonEqual(got["funnel"], wantFunnel) {
			t.Fatalf("funnel %v", got["funnel"])
		}
		for q, msg := range map[string]string{
			"from=" + day(-366) + "&to=" + day(0): "The range is too long: at most 366 days",
			"from=" + day(1) + "&to=" + day(0):    "from must not be after to",
			"from=23-11-2026":                     "from must be a date written YYYY-MM-DD, like 2026-11-01",
			"to=2026-02-30":                       "to must be a date written YYYY-MM-DD, like 2026-11-01",
			"from=2026-11-01&from=2026-11-02":     "Give from once",
			"days=7":                              "Unknown parameter days: the analytics take from and to (YYYY-MM-DD)",
		} {
			res := env.admin(t, "GET", "/admin/v1/analytics?"+q, nil, op)
			wantStatus(t, res, http.StatusBadRequest)
			if body := decode(t, res); body["error"] != msg {
				t.Errorf("%s: %q, want %q", q, body["error"], msg)
			}
		}
		// Only operators: 401 without a user's token, 403 for everyone else.
		wantStatus(t, env.admin(t, "GET", "/admin/v1/analytics", nil, ""), http.StatusUnauthorized)
		shopper := str(env.signUp(t, "shopper@example.com", goodPassword), "access_token")
		res := env.admin(t, "GET", "/admin/v1/analytics", nil, shopper)
		wantStatus(t, res, http.StatusForbidden)
		if body := decode(t, res); body["error"] != "This page is for the Salaula team" {
			t.Fatalf("403 = %v", body)
		}
	})
}
