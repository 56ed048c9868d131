package store_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"salaula/internal/console"
	"salaula/internal/console/consoletest"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// TestWaitlistSearch finds the addresses that start with a text, or whose
// domain does, on both engines: few matches (read through the indexes),
// many (read in the list's order), a '_' typed (matched as itself), none,
// and a deleted sign-up gone from the search.
func TestWaitlistSearch(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		consoletest.SeedWaitlist(t, db, 3000)
		ctx := context.Background()
		search := func(q string) *console.Page[console.WaitlistItem] {
			t.Helper()
			p, err := console.ListWaitlist(ctx, db, console.WaitlistFilter{Q: q}, console.Paging{Limit: 200})
			if err != nil {
				t.Fatalf("search %q: %v", q, err)
			}
			return p
		}
		if p := search("SEED0001"); p.Total != 100 || p.TotalAtLeast || len(p.Items) != 100 || p.Items[0].Email != "seed000199@example.com" {
			t.Errorf("seed0001: total %d (at least: %v), %d items", p.Total, p.TotalAtLeast, len(p.Items))
		}
		// Exact (3,000) or "more than 1,000" where the index found too many to count.
		if p := search("example.com"); (p.Total != 3000 || p.TotalAtLeast) && !(p.Total == 1000 && p.TotalAtLeast) || len(p.Items) != 200 || p.Items[0].Email != "seed002999@example.com" {
			t.Errorf("example.com: total %d (at least: %v), %d items", p.Total, p.TotalAtLeast, len(p.Items))
		}
		if p := search("d00001_"); p.Total != 0 || len(p.Items) != 0 {
			t.Errorf("d00001_: total %d, %d items, want none (no address holds a '_')", p.Total, len(p.Items))
		}
		for _, q := range []string{"nobody-here", "eed0001", "xample.com"} { // neither starts an address nor a domain
			if p := search(q); p.Total != 0 || len(p.Items) != 0 {
				t.Errorf("%s: total %d, %d items", q, p.Total, len(p.Items))
			}
		}
		if p := search("EXAMPLE.COM"); len(p.Items) != 200 {
			t.Errorf("EXAMPLE.COM: %d items", len(p.Items))
		}
		// '@' first searches the domains alone.
		if p := search("@EXAMPLE.COM"); len(p.Items) != 200 {
			t.Errorf("@EXAMPLE.COM: %d items", len(p.Items))
		}
		if p := search("@seed0001"); p.Total != 0 || len(p.Items) != 0 {
			t.Errorf("@seed0001: total %d, %d items, want none (no domain starts so)", p.Total, len(p.Items))
		}
		if _, err := db.Exec(ctx, `DELETE FROM waitlist_signups WHERE email = ?`, "seed000150@example.com"); err != nil {
			t.Fatal(err)
		}
		if p := search("seed00015"); p.Total != 9 || len(p.Items) != 9 {
			t.Errorf("seed00015 after a deletion: total %d, %d items, want 9", p.Total, len(p.Items))
		}
	})
}

// searchCase is a search and what it must find: the addresses of the
// matching records (any order), or, when total is set, how many match
// (atLeast: "more than").
type searchCase struct {
	q       string
	want    []string
	total   int
	atLeast bool
}

// checkSearch runs each case through search and compares.
func checkSearch(t *testing.T, cases []searchCase, search func(q string) (emails []string, total int, atLeast bool)) {
	t.Helper()
	for _, c := range cases {
		got, total, atLeast := search(c.q)
		if c.want != nil {
			slices.Sort(got)
			want := slices.Sorted(slices.Values(c.want))
			if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) || total != len(want) || atLeast {
				t.Errorf("%q: %v (total %d, at least: %v), want %v", c.q, got, total, atLeast, want)
			}
			continue
		}
		if total != c.total || atLeast != c.atLeast || len(got) != min(c.total, 200) {
			t.Errorf("%q: total %d (at least: %v), %d items, want %d (at least: %v)", c.q, total, atLeast, len(got), c.total, c.atLeast)
		}
	}
}

// TestMessagesSearch finds the messages whose address, domain, first name
// or last name starts with a text, on both engines: letter case ignored,
// '%' and '_' matched as themselves, nothing from the middle of a text,
// few matches (read through the indexes) and many (read in the list's
// order, "more than 1,000"), with other filters too.
func TestMessagesSearch(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if err := consoletest.ScaleMessages(ctx, db, 3000); err != nil {
			t.Fatal(err)
		}
		at := store.Now()
		msgs := []store.ContactMessage{
			{FirstName: "Agnes", LastName: "Mulenga", Email: "agnes.mulenga@gmail.com"},
			{FirstName: "Grace", LastName: "Phiri", Email: "grace@zamtel.co.zm"},
			{FirstName: "Joseph", LastName: "Lungu", Email: "jl_2024@zamtel.co.zm"},
			{FirstName: "Memory", LastName: "Tembo", Email: "100%real@mail.zm"},
		}
		for i := range msgs {
			msgs[i].ID, msgs[i].Subject, msgs[i].Message, msgs[i].CreatedAt = store.NewOrderedID(), "careers", "Hello", at
		}
		if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.ImportMessages(ctx, msgs) }); err != nil {
			t.Fatal(err)
		}
		search := func(f console.MessageFilter) func(q string) ([]string, int, bool) {
			return func(q string) ([]string, int, bool) {
				t.Helper()
				f.Q = q
				p, err := console.ListMessages(ctx, db, f, console.Paging{Limit: 200})
				if err != nil {
					t.Fatalf("search %q: %v", q, err)
				}
				var emails []string
				for _, m := range p.Items {
					emails = append(emails, m.Email)
				}
				return emails, p.Total, p.TotalAtLeast
			}
		}
		none := []string{}
		checkSearch(t, []searchCase{
			{q: "agnes", want: []string{"agnes.mulenga@gmail.com"}},     // the address and the first name
			{q: "AGNES.MUL", want: []string{"agnes.mulenga@gmail.com"}}, // letter case ignored
			{q: "gmail", want: []string{"agnes.mulenga@gmail.com"}},     // the domain
			{q: "Mulenga", want: []string{"agnes.mulenga@gmail.com"}},   // the last name
			{q: "zamtel.co", want: []string{"grace@zamtel.co.zm", "jl_2024@zamtel.co.zm"}},
			{q: "phi", want: []string{"grace@zamtel.co.zm"}},
			{q: "ulenga", want: none}, {q: "mail.com", want: none}, {q: "race", want: none}, // the middle of a text
			{q: "jl_", want: []string{"jl_2024@zamtel.co.zm"}}, {q: "jl%", want: none}, {q: "j_", want: none},
			{q: "100%", want: []string{"100%real@mail.zm"}}, {q: "1%", want: none}, {q: "%", want: none}, {q: "_", want: none},
			{q: "nobody-here", want: none}, {q: strings.Repeat("a", 300), want: none},
			{q: "@GMAIL", want: []string{"agnes.mulenga@gmail.com"}}, {q: "@agnes", want: none}, // '@' first: the domain alone
			{q: "@", total: 3004}, // the domain alone, of any text: no search
			{q: consoletest.TenthDomain, total: 300},
			{q: consoletest.HundredDomain, total: 100},
			{q: "banda00001", total: 10}, // last names
			{q: "CHIPO", total: 375},     // an eighth's first name
			{q: "seed", total: 1000, atLeast: true},
			{q: "example.com", total: 1000, atLeast: true},
			{q: "   ", total: 3004},
		}, search(console.MessageFilter{}))
		// With another filter a search is counted, whether it matches few or many.
		checkSearch(t, []searchCase{
			{q: "seed", total: 600}, {q: "banda00001", total: 2}, {q: "zamtel", want: []string{"grace@zamtel.co.zm", "jl_2024@zamtel.co.zm"}},
		}, search(console.MessageFilter{Subject: "careers"}))
	})
}

// TestPeopleSearch finds the accounts whose address or its domain, or
// whose profile's full name or its last word, starts with a text, on both
// engines: letter case ignored, '%' and '_' matched as themselves, a
// middle word or the middle of a text not found, an account found by both
// its address and its name listed once, few matches and many.
func TestPeopleSearch(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if err := consoletest.ScalePeople(ctx, db, 3000); err != nil {
			t.Fatal(err)
		}
		at := store.Now()
		buyer := "buyer"
		users := []store.User{{Email: "agnes@gmail.com"}, {Email: "lurker@zamtel.co.zm"}, {Email: "jl_2024@zamtel.co.zm"}, {Email: "mulenga.k@mail.zm"}}
		names := []string{"Agnes Mulenga Phiri", "", "Joseph Lungu", "Kasonde Mulenga"}
		var profiles []store.Profile
		for i := range users {
			users[i].ID, users[i].CreatedAt, users[i].UpdatedAt = store.NewID(), at, at
			if names[i] != "" {
				profiles = append(profiles, store.Profile{UserID: users[i].ID, Role: &buyer, FullName: names[i], CreatedAt: at, UpdatedAt: at})
			}
		}
		if err := db.InTx(ctx, func(tx *store.Tx) error { return tx.ImportPeople(ctx, users, profiles) }); err != nil {
			t.Fatal(err)
		}
		search := func(f console.PeopleFilter) func(q string) ([]string, int, bool) {
			return func(q string) ([]string, int, bool) {
				t.Helper()
				f.Q = q
				p, err := console.ListPeople(ctx, db, f, console.Paging{Limit: 200})
				if err != nil {
					t.Fatalf("search %q: %v", q, err)
				}
				var emails []string
				for _, m := range p.Items {
					emails = append(emails, m.Email)
				}
				return emails, p.Total, p.TotalAtLeast
			}
		}
		none := []string{}
		checkSearch(t, []searchCase{
			{q: "agnes", want: []string{"agnes@gmail.com"}},     // the address and the full name: once
			{q: "Phiri", want: []string{"agnes@gmail.com"}},     // the last word
			{q: "mulenga", want: []string{"mulenga.k@mail.zm"}}, // the address and the last word; not a middle word
			{q: "KASONDE M", want: []string{"mulenga.k@mail.zm"}},
			{q: "LURK", want: []string{"lurker@zamtel.co.zm"}}, // an account without a profile
			{q: "zamtel", want: []string{"lurker@zamtel.co.zm", "jl_2024@zamtel.co.zm"}},
			{q: "gmail", want: []string{"agnes@gmail.com"}},
			{q: "gnes", want: none}, {q: "mail.com", want: none}, {q: "ungu", want: none},
			{q: "jl_", want: []string{"jl_2024@zamtel.co.zm"}}, {q: "jl%", want: none}, {q: "j_", want: none},
			{q: "%", want: none}, {q: "_", want: none}, {q: strings.Repeat("a", 300), want: none},
			{q: "@zamtel.co", want: []string{"lurker@zamtel.co.zm", "jl_2024@zamtel.co.zm"}}, {q: "@agnes", want: none},
			{q: "@", total: 3004},
			{q: consoletest.TenthDomain, total: 300},
			{q: consoletest.HundredDomain, total: 100},
			{q: "banda00001", total: 9}, // last words; the tenth of each ten has no profile
			{q: "chipo", total: 375},    // an eighth's first name
			{q: "seed", total: 1000, atLeast: true},
			{q: "example.com", total: 1000, atLeast: true},
			{q: "  ", total: 3004},
		}, search(console.PeopleFilter{}))
		checkSearch(t, []searchCase{
			{q: "seed", total: 900}, {q: "banda00001", total: 2}, {q: "mulenga", want: []string{"mulenga.k@mail.zm"}},
		}, search(console.PeopleFilter{Role: "buyer"}))
	})
}
