package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
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
	TargetName string         `json:"targetName"` // who or what the target is, in words (NameAuditTargets)
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

// auditTargetNames are the queries of the words naming each type of audit
// target, by id: a person's full name (their e-mail without a profile),
// the sender of a contact message, an announcement's subject.
var auditTargetNames = map[string]string{
	"user":            `SELECT u.id, COALESCE(NULLIF(p.full_name, ''), u.email) FROM users u LEFT JOIN profiles p ON p.user_id = u.id WHERE u.id IN `,
	"contact_message": `SELECT id, first_name || ' ' || last_name FROM contact_messages WHERE id IN `,
	"announcement":    `SELECT id, subject FROM announcements WHERE id IN `,
}

// NameAuditTargets fills in the TargetName of each entry, with one query
// for each type of target: "" when its record is gone or its type has no
// name (a setting is named by its key).
func (db *DB) NameAuditTargets(ctx context.Context, entries []AuditEntry) error {
	ids := map[string][]any{}
	for _, e := range entries {
		if _, ok := auditTargetNames[e.TargetType]; ok && IsID(e.TargetID) {
			ids[e.TargetType] = append(ids[e.TargetType], e.TargetID)
		}
	}
	names := map[[2]string]string{}
	for typ, list := range ids {
		rows, err := db.Query(ctx, auditTargetNames[typ]+`(?`+strings.Repeat(", ?", len(list)-1)+`)`, list...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id, name string
			if err := rows.Scan(&id, &name); err != nil {
				rows.Close()
				return err
			}
			names[[2]string{typ, id}] = name
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return err
		}
	}
	for i := range entries {
		entries[i].TargetName = names[[2]string{entries[i].TargetType, entries[i].TargetID}]
	}
	return nil
}
