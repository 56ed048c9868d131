package analytics

import (
	"context"
	"log/slog"
	"slices"
	"sort"
	"time"

	"salaula/internal/store"
)

// rollupGrace is how long after a UTC day ends its roll-up waits, so that
// the last events of the day (another instance's clock a little behind)
// are in.
const rollupGrace = time.Hour

// maxValuesPerDay bounds how many pages, referrer hosts, sources and
// campaigns one rolled-up day keeps (each, by page views then visitors),
// so that a flood of made-up paths cannot grow the roll-up without end.
const maxValuesPerDay = 200

// Dimensions of the roll-up (analytics_daily_dims.dim).
const (
	dimPage     = "page"
	dimReferrer = "referrer"
	dimSource   = "utm_source"
	dimCampaign = "utm_campaign"
)

// dimNames are the dimensions, in the order of their raw-event columns
// (path, referrer_host, utm_source, utm_campaign).
var dimNames = [4]string{dimPage, dimReferrer, dimSource, dimCampaign}

// dayCounts are one day's figures.
type dayCounts struct {
	Visitors, PageViews, Waitlist, Accounts, Roles, Onboarded int
}

func (d *dayCounts) add(o dayCounts) {
	d.Visitors += o.Visitors
	d.PageViews += o.PageViews
	d.Waitlist += o.Waitlist
	d.Accounts += o.Accounts
	d.Roles += o.Roles
	d.Onboarded += o.Onboarded
}

// dimKey names one value of one dimension.
type dimKey struct{ dim, value string }

// dimCounts are the visitors and page views of one dimension value.
type dimCounts struct{ Visitors, PageViews int }

// rawDays computes, from the raw events of the days from lo to hi (and
// their waitlist sign-ups from the waitlist's roll-up), each day's figures
// and each day's counts by dimension. It reads the events
// once, in one index range scan, and counts in memory (one day holds a few
// thousand events; every GROUP BY in SQL would read them again).
func rawDays(ctx context.Context, db *store.DB, lo, hi string) (map[string]dayCounts, map[string]map[dimKey]dimCounts, error) {
	type seenKey struct {
		day, dim, value, visitor string
	}
	days := map[string]dayCounts{}
	dims := map[string]map[dimKey]dimCounts{}
	seen := map[seenKey]bool{} // (day, dimension value, visitor) already counted
	err := db.EachAnalyticsEvent(ctx, lo, hi, func(e *store.AnalyticsEvent) error {
		day, name, visitor := e.Day, e.Name, e.Visitor
		// n is how many occurrences the row stands for (more than one:
		// milestones counted together); values are in the order of dimNames.
		n := e.N
		values := [4]string{e.Path, e.ReferrerHost, e.UTMSource, e.UTMCampaign}
		c := days[day]
		switch name {
		case AccountCreated:
			c.Accounts += n
		case OnboardingFinished:
			c.Onboarded += n
		case PageView:
			c.PageViews++
			if k := (seenKey{day, "", "", visitor}); !seen[k] {
				seen[k] = true
				c.Visitors++
			}
			if slices.Contains(RolePaths, values[0]) {
				if k := (seenKey{day, "role", "", visitor}); !seen[k] {
					seen[k] = true
					c.Roles++
				}
			}
			if dims[day] == nil {
				dims[day] = map[dimKey]dimCounts{}
			}
			for i, dim := range dimNames {
				if values[i] == "" {
					continue
				}
				k := dimKey{dim, values[i]}
				dc := dims[day][k]
				dc.PageViews++
				if sk := (seenKey{day, dim, values[i], visitor}); !seen[sk] {
					seen[sk] = true
					dc.Visitors++
				}
				dims[day][k] = dc
			}
		}
		days[day] = c
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	// Waitlist sign-ups come from the waitlist's own daily roll-up, which
	// every sign-up updates in its transaction (no event of their own).
	perDay, err := db.WaitlistPerDay(ctx, lo)
	for day, programs := range perDay {
		if day > hi {
			continue
		}
		c := days[day]
		for _, n := range programs {
			c.Waitlist += n
		}
		days[day] = c
	}
	return days, dims, err
}

// RollupReport tells what one Rollup did.
type RollupReport struct {
	Days    int   // days rolled up
	Deleted int64 // raw events deleted
}

// Rollup rolls up every finished day whose raw events are not rolled up
// yet, deletes the raw events older than RawRetention of rolled-up days,
// and deletes salts of past days. Several instances may run it at once:
// a day is rolled up once.
func (c *Collector) Rollup(ctx context.Context) (RollupReport, error) {
	var rep RollupReport
	now := c.now().UTC()
	if err := c.salts.rotate(ctx, Day(now)); err != nil {
		return rep, err
	}
	// Days before this one are finished (with the grace period).
	open := Day(now.Add(-rollupGrace))
	pending, err := c.pendingDays(ctx, open)
	if err != nil {
		return rep, err
	}
	for _, day := range pending {
		done, err := c.rollupDay(ctx, day)
		if err != nil {
			return rep, err
		}
		if done {
			rep.Days++
		}
	}
	cutoff := Day(now.Add(-RawRetention))
	rep.Deleted, err = c.db.DeleteAnalyticsEventsBefore(ctx, cutoff)
	return rep, err
}

// pendingDays are the days before open that have raw events and no roll-up.
func (c *Collector) pendingDays(ctx context.Context, open string) ([]string, error) {
	return c.db.AnalyticsPendingDays(ctx, open)
}

// rollupDay writes day's roll-up from its raw events, unless another
// instance did so first (false then).
func (c *Collector) rollupDay(ctx context.Context, day string) (bool, error) {
	days, dims, err := rawDays(ctx, c.db, day, day)
	if err != nil {
		return false, err
	}
	d := days[day]
	kept := top(dims[day], maxValuesPerDay, byPageViews)
	rows := make([]store.AnalyticsDimCount, len(kept))
	for i, kc := range kept {
		rows[i] = store.AnalyticsDimCount{Dim: kc.key.dim, Value: kc.key.value, Visitors: kc.counts.Visitors, PageViews: kc.counts.PageViews}
	}
	return c.db.AddAnalyticsRollup(ctx, day, store.AnalyticsDay(d), rows)
}

type keyCounts struct {
	key    dimKey
	counts dimCounts
}

// Orders of the top lists.
const (
	byPageViews = iota // page views, then visitors
	byVisitors         // visitors, then page views
)

// top keeps the n values of each dimension that come first in order (ties
// by name), "" left out.
func top(m map[dimKey]dimCounts, n int, order int) []keyCounts {
	all := make([]keyCounts, 0, len(m))
	for k, c := range m {
		if k.value != "" {
			all = append(all, keyCounts{k, c})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.key.dim != b.key.dim {
			return a.key.dim < b.key.dim
		}
		first, second := [2]int{a.counts.PageViews, a.counts.Visitors}, [2]int{b.counts.PageViews, b.counts.Visitors}
		if order == byVisitors {
			first[0], first[1] = first[1], first[0]
			second[0], second[1] = second[1], second[0]
		}
		if first != second {
			return first[0] > second[0] || first[0] == second[0] && first[1] > second[1]
		}
		return a.key.value < b.key.value
	})
	out := all[:0]
	per := map[string]int{}
	for _, kc := range all {
		if per[kc.key.dim] < n {
			per[kc.key.dim]++
			out = append(out, kc)
		}
	}
	return out
}

// RollupEvery runs Rollup at once and then every interval until ctx ends,
// logging what it did and any failure.
func (c *Collector) RollupEvery(ctx context.Context, interval time.Duration, logger *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		rep, err := c.Rollup(ctx)
		if err != nil && ctx.Err() == nil {
			logger.Error("analytics roll-up", "err", err)
		} else if rep.Days > 0 || rep.Deleted > 0 {
			logger.Info("analytics roll-up", "days", rep.Days, "raw_events_deleted", rep.Deleted)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
