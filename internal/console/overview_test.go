package console

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
	"salaula/internal/validate"
)

// wantOverviewMatchesCounts compares the overview's waitlist totals and
// sources (read from the waitlist_counts roll-up) with direct counts of the
// sign-ups.
func wantOverviewMatchesCounts(t *testing.T, db *store.DB) {
	t.Helper()
	ctx := context.Background()
	o, err := GetOverview(ctx, db, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	direct := func(q string) string {
		rows, err := db.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := ""
		for rows.Next() {
			var a, b string
			var n int
			if err := rows.Scan(&a, &b, &n); err != nil {
				t.Fatal(err)
			}
			out += fmt.Sprintf("%s|%s=%d ", a, b, n)
		}
		return out
	}
	got := ""
	for _, p := range validate.Programs {
		w := o.Totals.Waitlist[p]
		got += fmt.Sprintf("%s|subscribed=%d %s|unsubscribed=%d ", p, w.Subscribed, p, w.Unsubscribed)
	}
	want := ""
	for _, p := range validate.Programs {
		var sub, unsub int
		if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM waitlist_signups WHERE program = ? AND unsubscribed_at IS NULL`, store.ProgramCode(p)).Scan(&sub); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM waitlist_signups WHERE program = ? AND unsubscribed_at IS NOT NULL`, store.ProgramCode(p)).Scan(&unsub); err != nil {
			t.Fatal(err)
		}
		want += fmt.Sprintf("%s|subscribed=%d %s|unsubscribed=%d ", p, sub, p, unsub)
	}
	if got != want {
		t.Errorf("waitlist totals\n got %s\nwant %s", got, want)
	}
	got = ""
	for _, c := range o.Sources.Campaigns {
		got += fmt.Sprintf("%s|%s=%d ", c.Source, c.Campaign, c.Count)
	}
	if want := direct(`SELECT utm_source, utm_campaign, COUNT(*) FROM waitlist_signups
		GROUP BY utm_source, utm_campaign ORDER BY COUNT(*) DESC, utm_source, utm_campaign LIMIT 10`); got != want {
		t.Errorf("campaigns\n got %s\nwant %s", got, want)
	}
	got = ""
	for _, p := range o.Sources.Pages {
		got += fmt.Sprintf("%s|=%d ", p.Name, p.Count)
	}
	if want := direct(`SELECT page_path, '', COUNT(*) FROM waitlist_signups GROUP BY page_path ORDER BY COUNT(*) DESC, page_path LIMIT 10`); got != want {
		t.Errorf("pages\n got %s\nwant %s", got, want)
	}
	// The daily series, day by day, against range counts of created_at.
	got, want = "", ""
	for _, d := range o.Daily {
		from, err := time.Parse("2006-01-02", d.Date)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range validate.Programs {
			var n int
			if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM waitlist_signups WHERE program = ? AND created_at >= ? AND created_at < ?`,
				store.ProgramCode(p), from, from.AddDate(0, 0, 1)).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n > 0 || d.Waitlist[p] > 0 {
				got += fmt.Sprintf("%s|%s=%d ", d.Date, p, d.Waitlist[p])
				want += fmt.Sprintf("%s|%s=%d ", d.Date, p, n)
			}
		}
	}
	if got != want || want == "" {
		t.Errorf("daily sign-ups\n got %s\nwant %s", got, want)
	}
	hosts := 0
	for _, r := range o.Sources.Referrers {
		hosts += r.Count
	}
	var all int
	if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM waitlist_signups`).Scan(&all); err != nil {
		t.Fatal(err)
	}
	if hosts != all || all == 0 {
		t.Errorf("referrers count %d sign-ups, the table holds %d", hosts, all)
	}
}

func TestOverviewRollUpStaysExact(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		day := 0
		join := func(email, program, source, page string) {
			t.Helper()
			day++ // sign-ups spread over several days, one before the series
			if _, err := db.JoinWaitlist(ctx, &store.WaitlistSignup{CreatedAt: store.Now().AddDate(0, 0, -(day*17)%100),
				Email: email, Program: program, UTMSource: source,
				UTMCampaign: "launch", PagePath: page, Referrer: "https://www." + source + ".com/x",
				UnsubscribeTokenHash: "hash-" + email + program}, store.WaitlistJoin{}); err != nil {
				t.Fatal(err)
			}
		}
		unsubscribe := func(email, program string) {
			t.Helper()
			if _, err := db.UnsubscribeWaitlist(ctx, "", "hash-"+email+program); err != nil {
				t.Fatal(err)
			}
		}
		wardrobe, upcycling := validate.Programs[0], validate.Programs[1]
		join("a@example.com", wardrobe, "facebook", "/wardrobeclearance")
		join("a@example.com", upcycling, "whatsapp", "/impact")
		join("b@example.com", wardrobe, "facebook", "/wardrobeclearance")
		join("a@example.com", wardrobe, "facebook", "/other") // again: nothing changes
		unsubscribe("b@example.com", wardrobe)
		unsubscribe("b@example.com", wardrobe) // twice: counted once
		join("c@example.com", upcycling, "", "/impact")
		unsubscribe("c@example.com", upcycling)
		join("c@example.com", upcycling, "", "/impact") // re-subscribes
		join("c@example.com", upcycling, "", "/impact") // already subscribed
		wantOverviewMatchesCounts(t, db)

		// Concurrent writers: new sign-ups, the same address many times,
		// unsubscribes and re-subscribes racing each other.
		var wg sync.WaitGroup
		errs := make(chan error, 400)
		for i := range 40 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				email := fmt.Sprintf("p%d@example.com", i%10)
				program := validate.Programs[i%2]
				s := &store.WaitlistSignup{Email: email, Program: program, UTMSource: []string{"facebook", "radio"}[i%2],
					PagePath: "/impact", UnsubscribeTokenHash: "hash-" + email + program}
				if _, err := db.JoinWaitlist(ctx, s, store.WaitlistJoin{}); err != nil {
					errs <- err
				}
				if i%3 == 0 {
					if _, err := db.UnsubscribeWaitlist(ctx, "", "hash-"+email+program); err != nil {
						errs <- err
					}
				}
				if i%5 == 0 {
					if _, err := db.JoinWaitlist(ctx, s, store.WaitlistJoin{}); err != nil {
						errs <- err
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		wantOverviewMatchesCounts(t, db)

		// Deleting a person takes their sign-ups off the figures.
		u := &store.User{Email: "a@example.com", PasswordHash: "x"}
		if err := db.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		unsubscribe("a@example.com", upcycling)
		deleted, err := db.DeletePerson(ctx, u.ID, true)
		if err != nil {
			t.Fatal(err)
		}
		if deleted["waitlist_signups"] != 2 {
			t.Errorf("deleted %d sign-ups of a@example.com, want 2", deleted["waitlist_signups"])
		}
		wantOverviewMatchesCounts(t, db)
	})
}
