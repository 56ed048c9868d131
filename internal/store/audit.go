package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"
)

// AuditEntry is one operator action in the append-only audit log.
type AuditEntry struct {
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

// Execer runs a statement: a *DB or, to write in the same transaction as
// another change, a *Tx.
type Execer interface {
	Exec(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// AppendAudit writes e to the append-only audit log through ex (a *Tx, to
// record a change in the same transaction as the change itself), filling
// in its ID, CreatedAt and Detail when empty. Entries are only ever
// appended and read; nothing updates or deletes them.
func AppendAudit(ctx context.Context, ex Execer, e *AuditEntry) error {
	if e.ID == "" {
		e.ID = NewID()
	}
	if e.CreatedAt.IsZero() {
		e.CreatedAt = Now()
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

func scanAudit(rows *sql.Rows) (AuditEntry, error) {
	var e AuditEntry
	var detail string
	if err := rows.Scan(&e.ID, &e.ActorID, &e.ActorEmail, &e.Action, &e.TargetType, &e.TargetID, &detail, &e.IP, &e.CreatedAt); err != nil {
		return e, err
	}
	e.Detail = map[string]any{}
	json.Unmarshal([]byte(detail), &e.Detail)
	e.CreatedAt = e.CreatedAt.UTC()
	return e, nil
}

func auditQuery() listQuery {
	return listQuery{columns: `id, actor_id, actor_email, action, target_type, target_id, detail, ip, created_at`,
		from: `audit_log`, keys: map[string]string{"created_at": "created_at"}, id: "id"}
}

// ListAudit calls fn with each audit entry in the order o (only by
// created_at; ties broken by id).
func (db *DB) ListAudit(ctx context.Context, o ListOrder, fn func(AuditEntry) error) error {
	return each(ctx, db, auditQuery(), o, scanAudit, fn)
}

// CountAudit is how many entries the audit log holds, up to CountCap.
func (db *DB) CountAudit(ctx context.Context) (Total, error) {
	q := auditQuery()
	return q.count(ctx, db)
}
