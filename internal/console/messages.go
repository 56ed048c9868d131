package console

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"salaula/internal/audit"
	"salaula/internal/store"
	"salaula/internal/validate"
)

// Contact message statuses: a message is open until an operator marks it handled.
const (
	MessageOpen    = "open"
	MessageHandled = "handled"
)

// MaxNoteLength is the longest note an operator can keep on a message.
const MaxNoteLength = 2000

// MessageFilter narrows the inbox: Subject one of validate.ContactSubjects,
// Status open or handled, Q a text searched in the e-mail and names.
type MessageFilter struct {
	Subject, Status, Q string
}

// MessageFilters are the query parameters the messages list takes.
var MessageFilters = []string{"subject", "status", "q"}

// ParseMessageFilter checks raw filter values and makes them canonical.
func ParseMessageFilter(raw map[string]string) (MessageFilter, error) {
	var f MessageFilter
	var err error
	if f.Subject, err = oneOf("subject", raw["subject"], validate.ContactSubjects...); err != nil {
		return f, err
	}
	if f.Status, err = oneOf("status", raw["status"], MessageOpen, MessageHandled); err != nil {
		return f, err
	}
	f.Q = raw["q"]
	return f, nil
}

// Message is one contact message with its inbox state.
type Message struct {
	ID          string     `json:"id"`
	FirstName   string     `json:"firstName"`
	LastName    string     `json:"lastName"`
	Email       string     `json:"email"`
	PhoneNumber string     `json:"phoneNumber"`
	Subject     string     `json:"subject"`
	Message     string     `json:"message"`
	Status      string     `json:"status"`
	Note        string     `json:"note"`
	HandledAt   *time.Time `json:"handledAt"`
	CreatedAt   time.Time  `json:"createdAt"`
}

const messageColumns = `id, first_name, last_name, email, phone_number, subject, message, status, note, handled_at, created_at`

func messageQuery(f MessageFilter) query {
	q := query{
		columns: messageColumns,
		from:    `contact_messages`,
		keys:    map[string]string{"created_at": "created_at", "email": "email"},
		id:      "id",
	}
	if f.Status != "" {
		q.add(`status = ?`, f.Status)
	}
	if f.Subject != "" {
		q.add(`subject = ?`, f.Subject)
	}
	q.searchAny(f.Q, "email", "first_name", "last_name")
	return q
}

func scanMessage(row interface{ Scan(...any) error }) (Message, error) {
	var m Message
	var handled sql.NullTime
	err := row.Scan(&m.ID, &m.FirstName, &m.LastName, &m.Email, &m.PhoneNumber, &m.Subject, &m.Message, &m.Status, &m.Note,
		&handled, &m.CreatedAt)
	m.HandledAt, m.CreatedAt = nullTime(handled), m.CreatedAt.UTC()
	return m, err
}

func scanMessageRows(rows *sql.Rows) (Message, error) { return scanMessage(rows) }

func messageKey(m Message) (time.Time, string, string, string) {
	return m.CreatedAt, m.Email, m.ID, m.ID
}

// ListMessages answers one page of the inbox.
func ListMessages(ctx context.Context, db *store.DB, f MessageFilter, p Paging) (*Page[Message], error) {
	return list(ctx, db, messageQuery(f), p, scanMessageRows, messageKey)
}

// EachMessage calls fn for every message matching f in the order of sort
// (oldest first when empty), one row in memory at a time.
func EachMessage(ctx context.Context, db *store.DB, f MessageFilter, sort string, fn func(Message) error) error {
	return each(ctx, db, messageQuery(f), sort, scanMessageRows, fn)
}

// MessageUpdate is what an operator changes on a message; a nil field is
// left as it is.
type MessageUpdate struct {
	Status *string `json:"status"`
	Note   *string `json:"note"`
}

// UpdateMessage sets a message's status and/or note and appends the audit
// entry in the same transaction. It returns the message as stored, ErrNotFound
// for an unknown id, or BadInput.
func UpdateMessage(ctx context.Context, db *store.DB, by Actor, id string, u MessageUpdate) (*Message, error) {
	if u.Status == nil && u.Note == nil {
		return nil, badInput(`Send "status" ("open" or "handled") and/or "note"`)
	}
	if u.Status != nil && *u.Status != MessageOpen && *u.Status != MessageHandled {
		return nil, badInput(`status must be "open" or "handled"`)
	}
	if u.Note != nil {
		note := strings.TrimSpace(*u.Note)
		if !utf8.ValidString(note) || utf8.RuneCountInString(note) > MaxNoteLength {
			return nil, badInput("The note can be at most 2000 characters")
		}
		u.Note = &note
	}
	var out Message
	err := db.InTx(ctx, func(tx *store.Tx) error {
		before, err := scanMessage(tx.QueryRow(ctx, `SELECT `+messageColumns+` FROM contact_messages WHERE id = ?`, id))
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		after := before
		detail := map[string]any{}
		if u.Status != nil && *u.Status != before.Status {
			after.Status = *u.Status
			after.HandledAt = nil
			if after.Status == MessageHandled {
				now := store.Now()
				after.HandledAt = &now
			}
			detail["status"] = map[string]string{"from": before.Status, "to": after.Status}
		}
		if u.Note != nil && *u.Note != before.Note {
			after.Note = *u.Note
			detail["note"] = map[string]string{"from": before.Note, "to": after.Note}
		}
		out = after
		if len(detail) == 0 {
			return nil // nothing changed, nothing to record
		}
		if _, err := tx.Exec(ctx, `UPDATE contact_messages SET status = ?, note = ?, handled_at = ? WHERE id = ?`,
			after.Status, after.Note, after.HandledAt, id); err != nil {
			return err
		}
		if err := tx.Announce(ctx, store.TableMessages, "UPDATE", `id = ?`, id); err != nil {
			return err
		}
		return audit.Append(ctx, tx, &audit.Entry{ActorID: by.ID, ActorEmail: by.Email, IP: by.IP,
			Action: "message.update", TargetType: "contact_message", TargetID: id, Detail: detail})
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}
