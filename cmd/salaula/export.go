package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"salaula/internal/store"
)

// normaliseEmail trims and lower-cases an e-mail address as the server stores it.
func normaliseEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// export writes what as CSV to w.
func export(ctx context.Context, db *store.DB, what, program string, w io.Writer) error {
	return fmt.Errorf("admin export: %q is not available yet", what)
}
