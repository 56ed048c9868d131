// Package audit is the append-only log of what operators changed: who, what,
// which record, when and from which IP. Entries are only ever appended (with
// Append, inside the transaction of the change they record) and read; nothing
// updates or deletes them.
package audit

import (
	"context"

	"salaula/internal/store"
)

// Execer runs a statement: a *store.DB or, to record a change in the same
// transaction as the change itself, a *store.Tx.
type Execer = store.Execer

// Entry is one operator action.
type Entry = store.AuditEntry

// Append writes e to the audit log, filling in its ID and CreatedAt when empty.
func Append(ctx context.Context, ex Execer, e *Entry) error {
	if e.ID == "" {
		e.ID = store.NewID()
	}
	if e.CreatedAt.IsZero() {
		e.CreatedAt = store.Now()
	}
	if e.Detail == nil {
		e.Detail = map[string]any{}
	}
	return store.AppendAudit(ctx, ex, e)
}
