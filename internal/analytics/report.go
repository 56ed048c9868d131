package analytics

import (
	"context"
	"math"
	"net/url"
	"time"

	"salaula/internal/apierr"
	"salaula/internal/store"
)

// MaxRangeDays is the longest range a report covers, both ends included.
const MaxRangeDays = 366

// DefaultRangeDays is the range of a report without dates: the last 30
// days, today included.
const DefaultRangeDays = 30

// topN is how many rows each top list keeps.
const topN = 10

// Report is the console's analytics for a range of UTC days
// (GET /admin/v1/analytics).
type Report struct {
	From         string          `json:"from"`
	To           string          `json:"to"`
	Days         []ReportDay     `json:"days"` // every day of the range, oldest first
	Totals       Totals          `json:"totals"`
	TopPages     []PageCount     `json:"top_pages"`     // by page views
	Referrers    []HostCount     `json:"referrers"`     // by visitors; direct visits left out
	UTMSources   []SourceCount   `json:"utm_sources"`   // by visitors
	UTMCampaigns []CampaignCount `json:"utm_campaigns"` // by visitors
	Funnel       []FunnelStep    `json:"funnel"`
}

// ReportDay is one day's figures.
type ReportDay struct {
	Day       string `json:"day"`
	Visitors  int    `json:"visitors"`
	PageViews int    `json:"pageviews"`
	Waitlist  int    `json:"waitlist"` // waitlist sign-ups
	Accounts  int    `json:"accounts"` // accounts created
}

// Totals add up the range. A visitor is counted once a day (the salt
// changes every day), so visitors is the sum of the days' visitors.
type Totals struct {
	Visitors  int `json:"visitors"`
	PageViews int `json:"pageviews"`
}

// PageCount is one page's visitors and page views.
type PageCount struct {
	Path      string `json:"path"`
	Visitors  int    `json:"visitors"`
	PageViews int    `json:"pageviews"`
}

// HostCount is one referrer host's visitors.
type HostCount struct {
	Host     string `json:"host"`
	Visitors int    `json:"visitors"`
}

// SourceCount is one UTM source's visitors.
type SourceCount struct {
	Source   string `json:"source"`
	Visitors int    `json:"visitors"`
}

// CampaignCount is one UTM campaign's visitors.
type CampaignCount struct {
	Campaign string `json:"campaign"`
	Visitors int    `json:"visitors"`
}

// FunnelStep is one step of the funnel: its count and its rate from the
// step before (nil for the first step and after a step of 0).
type FunnelStep struct {
	Step  string   `json:"step"`
	Count int      `json:"count"`
	Rate  *float64 `json:"rate"`
}

// The funnel's steps, in order.
var FunnelSteps = []string{"visitors", WaitlistJoined, AccountCreated, "role_chosen", OnboardingFinished}

// ParseRange reads the from and to parameters (YYYY-MM-DD, UTC days, both
// optional) against today: to defaults to today, from to DefaultRangeDays
// before to. It returns an Invalid error for bad dates, from after to, a range
// longer than MaxRangeDays or any other parameter.
func ParseRange(q url.Values, now time.Time) (from, to time.Time, err error) {
	for k := range q {
		if k != "from" && k != "to" {
			return from, to, apierr.New(apierr.Invalid, "Unknown parameter "+k+": the analytics take from and to (YYYY-MM-DD)")
		}
	}
	parse := func(name string) (time.Time, bool, error) {
		v, ok := q[name]
		if !ok || len(v) == 1 && v[0] == "" {
			return time.Time{}, false, nil
		}
		if len(v) > 1 {
			return time.Time{}, false, apierr.New(apierr.Invalid, "Give "+name+" once")
		}
		t, err := time.Parse(time.DateOnly, v[0])
		if err != nil {
			return time.Time{}, false, apierr.New(apierr.Invalid, name+" must be a date written YYYY-MM-DD, like 2026-11-01")
		}
		return t, true, nil
	}
	to, hasTo, err := parse("to")
	if err != nil {
		return from, to, err
	}
	if !hasTo {
		now = now.UTC()
		to = time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	}
	from, hasFrom, err := parse("from")
	if err != nil {
		return from, to, err
	}
	if !hasFrom {
		from = to.AddDate(0, 0, -(DefaultRangeDays - 1))
	}
	if from.After(to) {
		return from, to, apierr.New(apierr.Invalid, "from must not be after to")
	}
	if n := int(to.Sub(from).Hours()/24) + 1; n > MaxRangeDays {
		return from, to, apierr.New(apierr.Invalid, "The range is too long: at most 366 days")
	}
	return from, to, nil
}

// GetReport computes the report of the UTC days from..to (as ParseRange
// gives them). Rolled-up days come from the roll-up, the others (today,
// and days not rolled up yet) from the raw events.
func GetReport(ctx context.Context, db *store.DB, from, to time.Time) (*Report, error) {
	lo, hi := Day(from), Day(to)
	r := &Report{From: lo, To: hi, TopPages: []PageCount{}, Referrers: []HostCount{}, UTMSources: []SourceCount{},
		UTMCampaigns: []CampaignCount{}}
	rolled, err := db.AnalyticsDays(ctx, lo, hi)
	if err != nil {
		return nil, err
	}
	days := map[string]dayCounts{}
	for day, c := range rolled {
		days[day] = dayCounts(c)
	}
	// The rolled-up counts by dimension: whole calendar months from the
	// monthly roll-up, the days at either end from the daily one.
	dims := map[dimKey]dimCounts{}
	months, ends := splitMonths(from, to)
	sums := func(counts []store.AnalyticsDimCount, err error) error {
		if err != nil {
			return err
		}
		for _, c := range counts {
			k := dimKey{c.Dim, c.Value}
			sum := dims[k]
			sum.Visitors += c.Visitors
			sum.PageViews += c.PageViews
			dims[k] = sum
		}
		return nil
	}
	if months[0] != "" {
		if err := sums(db.AnalyticsMonthDims(ctx, months[0], months[1])); err != nil {
			return nil, err
		}
	}
	for _, e := range ends {
		if err := sums(db.AnalyticsDayDims(ctx, e[0], e[1])); err != nil {
			return nil, err
		}
	}
	// Days not rolled up: days are rolled up in order, so only the days
	// after the range's last rolled-up day can have raw events to count.
	rawLo := lo
	for day := range days {
		if day >= rawLo {
			rawLo = Day(mustDay(day).AddDate(0, 0, 1))
		}
	}
	if rawLo <= hi {
		rawCounts, rawDims, err := rawDays(ctx, db, rawLo, hi)
		if err != nil {
			return nil, err
		}
		for day, c := range rawCounts {
			if _, rolled := days[day]; rolled {
				continue
			}
			days[day] = c
			for k, dc := range rawDims[day] {
				sum := dims[k]
				sum.Visitors += dc.Visitors
				sum.PageViews += dc.PageViews
				dims[k] = sum
			}
		}
	}
	var total dayCounts
	for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
		c := days[Day(d)]
		total.add(c)
		r.Days = append(r.Days, ReportDay{Day: Day(d), Visitors: c.Visitors, PageViews: c.PageViews, Waitlist: c.Waitlist, Accounts: c.Accounts})
	}
	r.Totals = Totals{Visitors: total.Visitors, PageViews: total.PageViews}
	for _, kc := range top(dims, topN, byPageViews) {
		switch kc.key.dim {
		case dimPage:
			r.TopPages = append(r.TopPages, PageCount{Path: kc.key.value, Visitors: kc.counts.Visitors, PageViews: kc.counts.PageViews})
		}
	}
	for _, kc := range top(dims, topN, byVisitors) {
		switch kc.key.dim {
		case dimReferrer:
			r.Referrers = append(r.Referrers, HostCount{Host: kc.key.value, Visitors: kc.counts.Visitors})
		case dimSource:
			r.UTMSources = append(r.UTMSources, SourceCount{Source: kc.key.value, Visitors: kc.counts.Visitors})
		case dimCampaign:
			r.UTMCampaigns = append(r.UTMCampaigns, CampaignCount{Campaign: kc.key.value, Visitors: kc.counts.Visitors})
		}
	}
	counts := []int{total.Visitors, total.Waitlist, total.Accounts, total.Roles, total.Onboarded}
	for i, step := range FunnelSteps {
		s := FunnelStep{Step: step, Count: counts[i]}
		if i > 0 && counts[i-1] > 0 {
			rate := math.Round(float64(counts[i])/float64(counts[i-1])*10000) / 10000
			s.Rate = &rate
		}
		r.Funnel = append(r.Funnel, s)
	}
	return r, nil
}

// mustDay parses a stored day (always YYYY-MM-DD).
func mustDay(day string) time.Time {
	t, _ := time.Parse(time.DateOnly, day)
	return t
}

// splitMonths splits the days from..to into the whole calendar months
// inside it (first and last as YYYY-MM, "" when none) and the runs of days
// before and after them (first and last day each).
func splitMonths(from, to time.Time) (months [2]string, ends [][2]string) {
	first := time.Date(from.Year(), from.Month(), 1, 0, 0, 0, 0, time.UTC)
	if !first.Equal(from) {
		first = first.AddDate(0, 1, 0)
	}
	after := time.Date(to.Year(), to.Month(), 1, 0, 0, 0, 0, time.UTC) // first day after the last whole month
	if to.AddDate(0, 0, 1).Month() != to.Month() {
		after = after.AddDate(0, 1, 0)
	}
	if !first.Before(after) {
		return months, [][2]string{{Day(from), Day(to)}}
	}
	months = [2]string{first.Format("2006-01"), after.AddDate(0, -1, 0).Format("2006-01")}
	if from.Before(first) {
		ends = append(ends, [2]string{Day(from), Day(first.AddDate(0, 0, -1))})
	}
	if !after.After(to) {
		ends = append(ends, [2]string{Day(after), Day(to)})
	}
	return months, ends
}
