package console

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
	"salaula/internal/validate"
)

// TestWaitlistByEmailPagesThroughTies pages the waitlist sorted by e-mail,
// one sign-up a page, both ways, where one address is on every program:
// each sign-up comes exactly once, in e-mail then program order (the sort
// breaks ties by program, unique with the e-mail).
func TestWaitlistByEmailPagesThroughTies(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		var want []string
		for _, email := range []string{"a@example.com", "mwila@example.com", "z@example.com"} {
			programs := validate.Programs[:1]
			if email == "mwila@example.com" {
				programs = validate.Programs
			}
			for i, p := range programs {
				s := &store.WaitlistSignup{Email: email, Program: p, UnsubscribeTokenHash: fmt.Sprintf("h-%s-%d", email, i)}
				if _, err := db.JoinWaitlist(ctx, s, store.WaitlistJoin{}); err != nil {
					t.Fatal(err)
				}
				want = append(want, email+" "+p)
			}
		}
		for _, sort := range []string{"email", "-email"} {
			var got []string
			cursor := ""
			for range len(want) + 1 {
				page, err := ListWaitlist(ctx, db, WaitlistFilter{}, Paging{Sort: sort, Limit: 1, Cursor: cursor})
				if err != nil {
					t.Fatal(err)
				}
				for _, it := range page.Items {
					got = append(got, it.Email+" "+it.Program)
				}
				if page.NextCursor == nil {
					break
				}
				cursor = *page.NextCursor
			}
			exp := slices.Clone(want)
			if sort == "-email" {
				slices.Reverse(exp)
			}
			if strings.Join(got, ", ") != strings.Join(exp, ", ") {
				t.Fatalf("sort %s: got %q, want %q", sort, got, exp)
			}
		}
	})
}
