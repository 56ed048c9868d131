package analytics

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"salaula/internal/apierr"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

const (
	chrome  = "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"
	firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"
)

// clock is a settable clock for a collector.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func view(path string) Hit { return Hit{Name: PageView, Path: path} }

func record(t *testing.T, c *Collector, h Hit, ip, ua string) {
	t.Helper()
	if err := c.Record(context.Background(), h, ip, ua, "salaula.example"); err != nil {
		t.Fatal(err)
	}
}

func report(t *testing.T, db *store.DB, from, to string) *Report {
	t.Helper()
	f, tt, err := ParseRange(url.Values{"from": {from}, "to": {to}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	r, err := GetReport(context.Background(), db, f, tt)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func dayOf(r *Report, day string) ReportDay {
	for _, d := range r.Days {
		if d.Day == day {
			return d
		}
	}
	return ReportDay{}
}

func TestVisitorCountedOnceADayWithADailySalt(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		clk := &clock{time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)}
		c := New(db, clk.now)
		// Day 1: the same phone views three pages; another browser on the
		// same address (a shared mobile network) is another visitor.
		for _, p := range []string{"/", "/about", "/mens"} {
			record(t, c, view(p), "41.72.0.1", chrome)
		}
		record(t, c, view("/"), "41.72.0.1", firefox)
		var salt1 string
		if db.Dialect() == store.Postgres {
			db.QueryRow(ctx, `SELECT salt FROM analytics_salts WHERE day = '2026-11-01'`).Scan(&salt1)
			if len(salt1) != 64 {
				t.Fatalf("day 1's salt in the database: %q", salt1)
			}
		}
		// Day 2: the same phone again is counted again (a new salt).
		clk.t = clk.t.Add(24 * time.Hour)
		record(t, c, view("/"), "41.72.0.1", chrome)
		r := report(t, db, "2026-11-01", "2026-11-02")
		if d := dayOf(r, "2026-11-01"); d.Visitors != 2 || d.PageViews != 4 {
			t.Fatalf("day 1 = %+v, want 2 visitors, 4 page views", d)
		}
		if d := dayOf(r, "2026-11-02"); d.Visitors != 1 || d.PageViews != 1 {
			t.Fatalf("day 2 = %+v, want 1 visitor, 1 page view", d)
		}
		if r.Totals.Visitors != 3 || r.Totals.PageViews != 5 {
			t.Fatalf("totals %+v", r.Totals)
		}
		var v1, v2 string
		db.QueryRow(ctx, `SELECT visitor FROM analytics_events WHERE day = '2026-11-01' AND path = '/about'`).Scan(&v1)
		db.QueryRow(ctx, `SELECT visitor FROM analytics_events WHERE day = '2026-11-02'`).Scan(&v2)
		if v1 == "" || v1 == v2 {
			t.Fatalf("the same visitor's hash on two days: %q and %q", v1, v2)
		}
		// Only today's salt is kept.
		if db.Dialect() == store.Postgres {
			var days []string
			rows, err := db.Query(ctx, `SELECT day, salt FROM analytics_salts`)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var d, s string
				rows.Scan(&d, &s)
				days = append(days, d)
				if s == salt1 {
					t.Fatal("day 1's salt is still stored")
				}
			}
			rows.Close()
			if strings.Join(days, ",") != "2026-11-02" {
				t.Fatalf("salts stored for %v, want only 2026-11-02", days)
			}
			// A second instance on the same database hashes the same way.
			other := New(db, clk.now)
			record(t, other, view("/womens"), "41.72.0.1", chrome)
			if d := dayOf(report(t, db, "2026-11-02", "2026-11-02"), "2026-11-02"); d.Visitors != 1 || d.PageViews != 2 {
				t.Fatalf("two instances: day 2 = %+v, want 1 visitor, 2 page views", d)
			}
		}
		// The roll-up job drops yesterday's salt even when nobody visits.
		clk.t = clk.t.Add(24 * time.Hour)
		if _, err := c.Rollup(ctx); err != nil {
			t.Fatal(err)
		}
		if c.salts.salt != nil {
			t.Fatal("the past day's salt is still in memory")
		}
		if n := storetest.Count(t, db, `SELECT COUNT(*) FROM analytics_salts`); n != 0 {
			t.Fatalf("%d salts stored after the day ended", n)
		}
	})
}

func TestRollupKeepsTheFiguresAndDeletesRawEventsAfter30Days(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		clk := &clock{time.Date(2026, 10, 1, 10, 0, 0, 0, time.UTC)}
		c := New(db, clk.now)
		record(t, c, Hit{Name: PageView, Path: "/?utm_source=radio&utm_campaign=launch", Referrer: "https://www.facebook.com/x"}, "10.0.0.1", chrome)
		record(t, c, view("/about"), "10.0.0.1", chrome)
		record(t, c, view("/sellersignup"), "10.0.0.2", chrome)
		record(t, c, Hit{Name: PageView, Path: "/", Referrer: "https://salaula.example/about"}, "10.0.0.3", chrome) // own site: direct
		joinWaitlist(t, db, clk.t, "a@example.com")
		joinWaitlist(t, db, clk.t, "b@example.com")
		for _, m := range []string{AccountCreated, OnboardingFinished} {
			if err := c.Milestone(ctx, m); err != nil {
				t.Fatal(err)
			}
		}
		before := report(t, db, "2026-10-01", "2026-10-01")
		if before.Totals.Visitors != 3 || dayOf(before, "2026-10-01").Waitlist != 2 {
			t.Fatalf("raw report %+v", before)
		}
		// The same day is not rolled up yet, nor within the hour after it ends.
		clk.t = time.Date(2026, 10, 2, 0, 30, 0, 0, time.UTC)
		if rep, err := c.Rollup(ctx); err != nil || rep.Days != 0 {
			t.Fatalf("roll-up in the grace hour: %+v %v", rep, err)
		}
		clk.t = time.Date(2026, 10, 2, 1, 30, 0, 0, time.UTC)
		if rep, err := c.Rollup(ctx); err != nil || rep.Days != 1 || rep.Deleted != 0 {
			t.Fatalf("roll-up: %+v %v, want 1 day, nothing deleted", rep, err)
		}
		if rep, err := c.Rollup(ctx); err != nil || rep.Days != 0 {
			t.Fatalf("second roll-up: %+v %v, want nothing to do", rep, err)
		}
		// Read from the roll-up, the report is the same.
		after := report(t, db, "2026-10-01", "2026-10-01")
		if a, b := mustJSON(t, after), mustJSON(t, before); a != b {
			t.Fatalf("report from the roll-up\n%s\nfrom the raw events\n%s", a, b)
		}
		if got := mustJSON(t, after.Funnel); got != `[{"step":"visitors","count":3,"rate":null},{"step":"waitlist_joined","count":2,"rate":0.6667},{"step":"account_created","count":1,"rate":0.5},{"step":"role_chosen","count":1,"rate":1},{"step":"onboarding_finished","count":1,"rate":1}]` {
			t.Fatalf("funnel %s", got)
		}
		if got := mustJSON(t, after.Referrers); got != `[{"host":"facebook.com","visitors":1}]` {
			t.Fatalf("referrers %s", got)
		}
		// A range of whole months reads the monthly roll-up: the same lists.
		months := report(t, db, "2026-09-01", "2026-11-30")
		months.From, months.To, months.Days = after.From, after.To, after.Days
		if a, b := mustJSON(t, months), mustJSON(t, after); a != b {
			t.Fatalf("report over whole months\n%s\nover the day\n%s", a, b)
		}
		// Raw events stay 30 days, then go; the daily figures stay.
		clk.t = time.Date(2026, 10, 31, 12, 0, 0, 0, time.UTC)
		if rep, err := c.Rollup(ctx); err != nil || rep.Deleted != 0 {
			t.Fatalf("roll-up on day 30: %+v %v, want nothing deleted", rep, err)
		}
		clk.t = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
		if rep, err := c.Rollup(ctx); err != nil || rep.Deleted != 6 {
			t.Fatalf("roll-up on day 31: %+v %v, want 6 raw events deleted", rep, err)
		}
		if n := storetest.Count(t, db, `SELECT COUNT(*) FROM analytics_events`); n != 0 {
			t.Fatalf("%d raw events left", n)
		}
		if got := report(t, db, "2026-10-01", "2026-10-01"); mustJSON(t, got) != mustJSON(t, before) {
			t.Fatalf("report after the raw events went\n%s", mustJSON(t, got))
		}
	})
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestTopListsAndRolledUpDaysBesideRawOnes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		clk := &clock{time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)}
		c := New(db, clk.now)
		// 12 pages on day 1: page /p<i> viewed i times by i visitors.
		for i := 1; i <= 12; i++ {
			for v := 0; v < i; v++ {
				record(t, c, Hit{Name: PageView, Path: "/p" + strconv.Itoa(i), UTMSource: "s" + strconv.Itoa(i)}, "10.1.0."+strconv.Itoa(v), chrome)
			}
		}
		clk.t = clk.t.Add(24 * time.Hour)
		if rep, err := c.Rollup(ctx); err != nil || rep.Days != 1 {
			t.Fatalf("roll-up %+v %v", rep, err)
		}
		// Day 2, not rolled up: /p1 gains 20 views by one visitor.
		for range 20 {
			record(t, c, view("/p1"), "10.2.0.1", chrome)
		}
		r := report(t, db, "2026-11-20", "2026-11-21")
		if len(r.TopPages) != 10 || r.TopPages[0] != (PageCount{Path: "/p1", Visitors: 2, PageViews: 21}) ||
			r.TopPages[1] != (PageCount{Path: "/p12", Visitors: 12, PageViews: 12}) || r.TopPages[9].Path != "/p4" {
			t.Fatalf("top pages %+v", r.TopPages)
		}
		if len(r.UTMSources) != 10 || r.UTMSources[0] != (SourceCount{Source: "s12", Visitors: 12}) {
			t.Fatalf("sources %+v", r.UTMSources)
		}
		if r.Totals.PageViews != 78+20 || r.Totals.Visitors != 12+1 {
			t.Fatalf("totals %+v", r.Totals)
		}
	})
}

func TestParse(t *testing.T) {
	h, err := Parse(strings.NewReader(`{"name":"pageview","path":"/about?utm_source=radio","referrer":"","utm_campaign":"launch"}`), -1)
	if err != nil || h.Path != "/about?utm_source=radio" || h.UTMCampaign != "launch" {
		t.Fatalf("Parse = %+v, %v", h, err)
	}
	// A declared length over the limit is refused without reading.
	if _, err := Parse(iotest.ErrReader(errors.New("read")), MaxBody+1); apierr.As(err) == nil || apierr.As(err).Kind != apierr.Invalid ||
		apierr.As(err).Message != "The event is too large (at most 2 KiB)" {
		t.Fatalf("Parse of a declared %d bytes = %v", MaxBody+1, err)
	}
	e := clean(h, nil)
	if e.path != "/about" || e.utmSource != "radio" || e.utmCampaign != "launch" {
		t.Fatalf("clean = %+v", e)
	}
	// Fields win over the query; a trailing slash and escapes are undone.
	e = clean(Hit{Name: PageView, Path: "/caf%C3%A9/?utm_source=poster", UTMSource: "radio"}, nil)
	if e.path != "/café" || e.utmSource != "radio" {
		t.Fatalf("clean = %+v", e)
	}
	for ref, want := range map[string]string{
		"https://www.facebook.com/groups/x":    "facebook.com",
		"https://l.facebook.com/l.php?u=x":     "facebook.com",
		"https://m.facebook.com/":              "facebook.com",
		"android-app://com.google.android.gm/": "com.google.android.gm",
		"https://WWW.Google.co.zm/":            "google.co.zm",
		"https://salaula.example/about":        "",
		"not a url":                            "",
		"":                                     "",
	} {
		if got := ReferrerHost(ref, []string{"salaula.example"}); got != want {
			t.Errorf("ReferrerHost(%q) = %q, want %q", ref, got, want)
		}
	}
}

func TestIsBot(t *testing.T) {
	for ua, want := range map[string]bool{
		chrome:  false,
		firefox: false,
		"Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1": false,
		"Opera/9.80 (J2ME/MIDP; Opera Mini/9.80 (S60; SymbOS; Opera Mobi/23.348; U; en) Presto/2.5.25 Version/10.54":                              false,
		"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)":                                                                 true,
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36":                           true,
		"WhatsApp/2.23.20.0":     true,
		"python-requests/2.31.0": true,
		"Go-http-client/1.1":     true,
		"":                       true,
	} {
		if got := IsBot(ua); got != want {
			t.Errorf("IsBot(%q) = %v, want %v", ua, got, want)
		}
	}
}

func TestSplitMonths(t *testing.T) {
	d := func(s string) time.Time { return mustDay(s) }
	for _, c := range []struct{ from, to, want string }{
		{"2026-11-01", "2026-11-23", `["",""] [["2026-11-01","2026-11-23"]]`},
		{"2026-11-01", "2026-11-30", `["2026-11","2026-11"] []`},
		{"2025-11-23", "2026-11-23", `["2025-12","2026-10"] [["2025-11-23","2025-11-30"],["2026-11-01","2026-11-23"]]`},
		{"2026-01-31", "2026-02-01", `["",""] [["2026-01-31","2026-02-01"]]`},
		{"2026-01-15", "2026-02-28", `["2026-02","2026-02"] [["2026-01-15","2026-01-31"]]`},
	} {
		months, ends := splitMonths(d(c.from), d(c.to))
		if ends == nil {
			ends = [][2]string{}
		}
		if got := mustJSON(t, months) + " " + mustJSON(t, ends); got != c.want {
			t.Errorf("splitMonths(%s, %s) = %s, want %s", c.from, c.to, got, c.want)
		}
	}
}

// The funnel counts waitlist sign-ups from the waitlist's daily roll-up:
// sign-ups committed together are each counted once and one undone not at
// all (29 at once, a 30th undone as its ID is taken, and one on its own
// are 30), before and after the roll-up, and a day with sign-ups but no
// page view is rolled up too.
func TestWaitlistSignUpsAreCountedFromTheWaitlistRollUp(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		clk := &clock{time.Date(2026, 10, 1, 10, 0, 0, 0, time.UTC)}
		c := New(db, clk.now)
		taken := joinWaitlist(t, db, clk.t, "taken@example.com")
		// Hold the writer so the sign-ups queue and go in as one group.
		held, done := make(chan struct{}), make(chan error, 1)
		go func() {
			done <- db.InTx(ctx, func(*store.Tx) error { close(held); time.Sleep(200 * time.Millisecond); return nil })
		}()
		<-held
		const n = 30
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s := &store.WaitlistSignup{Email: fmt.Sprintf("m%d@example.com", i), Program: "Upcycling Initiative",
					UnsubscribeTokenHash: fmt.Sprint("h", i), CreatedAt: clk.t}
				if i == 7 {
					s.ID = taken.ID
				}
				_, errs[i] = db.JoinWaitlist(ctx, s, store.WaitlistJoin{})
			}()
		}
		wg.Wait()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		for i, err := range errs {
			if (err != nil) != (i == 7) {
				t.Fatalf("sign-up %d: %v", i, err)
			}
		}
		if got := dayOf(report(t, db, "2026-10-01", "2026-10-01"), "2026-10-01").Waitlist; got != n {
			t.Fatalf("the report counts %d sign-ups, want %d", got, n)
		}
		if got := storetest.Count(t, db, `SELECT COUNT(*) FROM analytics_events`); got != 0 {
			t.Fatalf("%d analytics events written by sign-ups, want none", got)
		}
		clk.t = time.Date(2026, 10, 2, 1, 30, 0, 0, time.UTC)
		if rep, err := c.Rollup(ctx); err != nil || rep.Days != 1 {
			t.Fatalf("roll-up of a day with sign-ups only: %+v %v, want 1 day", rep, err)
		}
		got := report(t, db, "2026-10-01", "2026-10-01")
		if d := dayOf(got, "2026-10-01"); d.Waitlist != n {
			t.Fatalf("after the roll-up the report counts %d sign-ups, want %d", d.Waitlist, n)
		}
		if f := mustJSON(t, got.Funnel[:2]); f != `[{"step":"visitors","count":0,"rate":null},{"step":"waitlist_joined","count":30,"rate":null}]` {
			t.Fatalf("funnel %s", f)
		}
	})
}

// joinWaitlist signs email up for the Upcycling Initiative at the time at.
func joinWaitlist(t *testing.T, db *store.DB, at time.Time, email string) *store.WaitlistSignup {
	t.Helper()
	s := &store.WaitlistSignup{Email: email, Program: "Upcycling Initiative", UnsubscribeTokenHash: "h-" + email, CreatedAt: at}
	if joined, err := db.JoinWaitlist(context.Background(), s, store.WaitlistJoin{}); err != nil || !joined {
		t.Fatalf("join %s: %v %v", email, joined, err)
	}
	return s
}
