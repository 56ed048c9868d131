package console

import (
	"context"
	"net/url"
	"sort"
	"strings"
	"time"

	"salaula/internal/store"
	"salaula/internal/validate"
)

// SeriesDays is how many days the overview's daily series cover, today included.
const SeriesDays = 90

// topSources is how many rows each sign-ups-by-source table keeps.
const topSources = 10

// Overview is what the console's first page shows.
type Overview struct {
	Totals  Totals    `json:"totals"`
	Daily   []Day     `json:"daily"` // oldest first, one per day, days without events included
	Sources Sources   `json:"sources"`
	Newest  []Event   `json:"newest"` // the newest sign-ups, accounts and messages, newest first
	AsOf    time.Time `json:"asOf"`
}

// Totals are the counts on the overview's cards.
type Totals struct {
	Accounts  int `json:"accounts"`
	Operators int `json:"operators"`
	// ProfilesByRole counts completed profiles by role (buyer, seller, buyer_and_seller).
	ProfilesByRole map[string]int `json:"profilesByRole"`
	// OnboardingUnfinished counts accounts (onboarding starts with the
	// account) that have no completed profile yet.
	OnboardingUnfinished int                      `json:"onboardingUnfinished"`
	Waitlist             map[string]WaitlistTotal `json:"waitlist"` // by program
	Messages             MessageTotals            `json:"messages"`
}

// WaitlistTotal counts one program's sign-ups.
type WaitlistTotal = store.WaitlistTally

// MessageTotals counts contact messages by status.
type MessageTotals struct {
	Open    int `json:"open"`
	Handled int `json:"handled"`
}

// Day is one day of the daily series (UTC).
type Day struct {
	Date              string         `json:"date"` // YYYY-MM-DD
	Accounts          int            `json:"accounts"`
	ProfilesCompleted int            `json:"profilesCompleted"`
	Waitlist          map[string]int `json:"waitlist"` // sign-ups by program
	Messages          int            `json:"messages"`
}

// Sources are where waitlist sign-ups came from, most first.
type Sources struct {
	Campaigns []CampaignCount `json:"campaigns"`
	Referrers []NameCount     `json:"referrers"` // by host; "" is a direct visit
	Pages     []NameCount     `json:"pages"`
}

// CampaignCount counts sign-ups of one UTM source and campaign.
type CampaignCount = store.CampaignTally

// NameCount counts sign-ups with one value.
type NameCount struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// Event is one recent happening shown on the overview.
type Event = store.Activity

// GetOverview computes the overview as of now.
func GetOverview(ctx context.Context, db *store.DB, now time.Time) (*Overview, error) {
	now = now.UTC()
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	since := today.AddDate(0, 0, -(SeriesDays - 1))
	o := &Overview{AsOf: now, Totals: Totals{ProfilesByRole: map[string]int{}, Waitlist: map[string]WaitlistTotal{}},
		Newest: []Event{}}
	for _, r := range validate.Roles {
		o.Totals.ProfilesByRole[r] = 0
	}
	days := map[string]*Day{}
	o.Daily = make([]Day, 0, SeriesDays) // never reallocated: days points into it
	for d := since; !d.After(today); d = d.AddDate(0, 0, 1) {
		day := &Day{Date: d.Format("2006-01-02"), Waitlist: map[string]int{}}
		for _, p := range validate.Programs {
			day.Waitlist[p] = 0
		}
		o.Daily = append(o.Daily, *day)
		days[day.Date] = &o.Daily[len(o.Daily)-1]
	}
	for _, p := range validate.Programs {
		o.Totals.Waitlist[p] = WaitlistTotal{}
	}
	// The series of accounts, profiles and messages read only the last 90
	// days; the waitlist's comes from its roll-up.
	accounts, profiles, messages, err := db.CreatedPerDay(ctx, since)
	if err != nil {
		return nil, err
	}
	for date, d := range days {
		d.Accounts, d.ProfilesCompleted, d.Messages = accounts[date], profiles[date], messages[date]
	}
	signups, err := db.WaitlistPerDay(ctx, since.Format("2006-01-02"))
	if err != nil {
		return nil, err
	}
	for date, byProgram := range signups {
		if d := days[date]; d != nil {
			for program, n := range byProgram {
				d.Waitlist[program] += n
			}
		}
	}
	// Totals.
	if o.Totals.Accounts, o.Totals.Operators, err = db.CountAccounts(ctx); err != nil {
		return nil, err
	}
	byRole, err := db.ProfilesByRole(ctx)
	if err != nil {
		return nil, err
	}
	completed := 0
	for role, n := range byRole {
		o.Totals.ProfilesByRole[role] = n
		completed += n
	}
	o.Totals.OnboardingUnfinished = max(o.Totals.Accounts-completed, 0)
	byProgram, err := db.WaitlistByProgram(ctx)
	if err != nil {
		return nil, err
	}
	for p, t := range byProgram {
		o.Totals.Waitlist[p] = t
	}
	byStatus, err := db.MessagesByStatus(ctx)
	if err != nil {
		return nil, err
	}
	o.Totals.Messages.Open, o.Totals.Messages.Handled = byStatus[MessageOpen], byStatus[MessageHandled]
	// Sources.
	if o.Sources.Campaigns, err = db.TopCampaigns(ctx, topSources); err != nil {
		return nil, err
	}
	byReferrer, err := db.WaitlistByReferrer(ctx)
	if err != nil {
		return nil, err
	}
	hosts := map[string]int{}
	for ref, n := range byReferrer {
		hosts[referrerHost(ref)] += n
	}
	o.Sources.Referrers = top(hosts)
	byPage, err := db.WaitlistByPage(ctx)
	if err != nil {
		return nil, err
	}
	o.Sources.Pages = top(byPage)
	// Newest events.
	newest, err := db.NewestActivity(ctx, 10)
	if err != nil {
		return nil, err
	}
	o.Newest = append(o.Newest, newest...)
	sort.SliceStable(o.Newest, func(i, j int) bool { return o.Newest[i].At.After(o.Newest[j].At) })
	if len(o.Newest) > 10 {
		o.Newest = o.Newest[:10]
	}
	return o, nil
}

// referrerHost is the host of a referrer URL without "www.", "" for none.
func referrerHost(ref string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return ""
	}
	u, err := url.Parse(ref)
	if err != nil || u.Hostname() == "" {
		return ref
	}
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
}

// top returns the topSources largest counts, most first (ties by name).
func top(m map[string]int) []NameCount {
	out := make([]NameCount, 0, len(m))
	for k, v := range m {
		out = append(out, NameCount{Name: k, Count: v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Name < out[j].Name
	})
	if len(out) > topSources {
		out = out[:topSources]
	}
	return out
}
