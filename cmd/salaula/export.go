package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"salaula/internal/console"
	"salaula/internal/export"
	"salaula/internal/store"
)

// normaliseEmail trims and lower-cases an e-mail address as the server stores it.
func normaliseEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// exportCSV writes what (waitlist, messages or profiles) as CSV to w, oldest first.
func exportCSV(ctx context.Context, db *store.DB, what, program string, w io.Writer) error {
	switch what {
	case "waitlist":
		f, err := console.ParseWaitlistFilter(map[string]string{"program": program})
		if err != nil {
			return refused("admin export waitlist", err)
		}
		return export.Waitlist(ctx, db, f, "", w)
	case "messages":
		return export.Messages(ctx, db, console.MessageFilter{}, "", w)
	case "profiles":
		return export.Profiles(ctx, db, console.PeopleFilter{WithProfile: true}, "", w)
	default:
		return fmt.Errorf("admin export: unknown export %q: want waitlist, messages or profiles", what)
	}
}
