// Package audit is the append-only log of what operators changed: who, what,
// which record, when and from which IP. Entries are only ever appended (with
// Append, inside the transaction of the change they record) and read; nothing
// updates or deletes them.
package audit

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"salaula/internal/store"
)

// Execer runs a statement: a *store.DB or, to record a change in the same
// transaction as the change itself, a *store.Tx.
type Execer interface {
	Exec(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// Entry is one operator action.
type Entry struct {
	ID         string         `json:"id"`
	ActorID    string         `json:"actorId"`
	ActorEmail string         `json:"actorEmail"`
	Action     string         `json:"action"`     // e.g. "message.update", "person.sign_out"
	TargetType string         `json:"targetType"` // e.g. "contact_message", "user"
	TargetID   string         `json:"targetId"`
	Detail     map[string]any `json:"detail"` // what changed, as a small JSON object
	IP         string         `json:"ip"`
	CreatedAt  time.Time      `json:"createdAt"`
}

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
	detail, err := json.Marshal(e.Detail)
	if err != nil {
		return err
	}
	_, err = ex.Exec(ctx, `INSERT INTO audit_log (id, actor_id, actor_email, action, target_type, target_id, detail, ip, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.ID, e.ActorID, e.ActorEmail, e.Action, e.TargetType, e.TargetID, string(detail), e.IP, e.CreatedAt)
	return err
}

// Columns are the audit_log columns Scan reads, in its order.
const Columns = `id, actor_id, actor_email, action, target_type, target_id, detail, ip, created_at`

// Scan reads one row of Columns.
func Scan(row interface{ Scan(...any) error }) (*Entry, error) {
	var e Entry
	var detail string
	if err := row.Scan(&e.ID, &e.ActorID, &e.ActorEmail, &e.Action, &e.TargetType, &e.TargetID, &detail, &e.IP, &e.CreatedAt); err != nil {
		return nil, err
	}
	e.Detail = map[string]any{}
	json.Unmarshal([]byte(detail), &e.Detail)
	e.CreatedAt = e.CreatedAt.UTC()
	return &e, nil
}
