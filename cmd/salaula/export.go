package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"salaula/internal/export"
	"salaula/internal/store"
)

// normaliseEmail trims and lower-cases an e-mail address as the server stores it.
func normaliseEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// exportCSV writes what (waitlist, messages or profiles) as CSV to w.
func exportCSV(ctx context.Context, db *store.DB, what, program string, w io.Writer) error {
	switch what {
	case "waitlist":
		return export.Waitlist(ctx, db, program, w)
	case "messages":
		return export.Messages(ctx, db, w)
	case "profiles":
		return export.Profiles(ctx, db, w)
	default:
		return fmt.Errorf("admin export: unknown export %q: want waitlist, messages or profiles", what)
	}
}
